// Token list: npm @solana/spl-token-registry 0.2.4574 (solana-labs/token-list, Apache-2.0). Block 254170887:
// helius-labs/photon (Apache-2.0). See test/fixtures/real/PROVENANCE.md.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import { readTokenList, tokenNames } from '../../../src/ingest/solana/token-list.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const text = readFileSync(`${REAL_DATA}tokens/solana.tokenlist.json`, 'utf8');

describe('readTokenList', () => {
  const rows = readTokenList(text);

  it('reads the mainnet entries (chainId 101) as sorted, unique TokenRows', () => {
    expect(rows).toHaveLength(13_053);
    expect(new Set(rows.map((r) => r.mint)).size).toBe(rows.length);
    expect(rows.map((r) => r.mint)).toEqual(rows.map((r) => r.mint).sort());
    expect(rows.find((r) => r.mint === 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toEqual({
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', name: 'USD Coin', symbol: 'USDC', decimals: 6, supply: null,
    });
    expect(rows.find((r) => r.mint === 'So11111111111111111111111111111111111111112')?.symbol).toBe('SOL');
  });

  it('reads another chain on request', () => {
    const devnet = readTokenList(text, 103);
    expect(devnet.length).toBeGreaterThan(0);
    expect(devnet.length).toBeLessThan(rows.length);
  });

  it('names the tokens of decoded blocks; unknown mints get empty name and symbol', () => {
    const block = readFileSync(`${REAL_DATA}blocks/block-254170887.json-encoding.json`, 'utf8');
    const { tokens } = decodeGetBlockFile(block, 'block-254170887.json', { tokenNames: tokenNames(rows) });
    expect(tokens.find((t) => t.mint === 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')).toMatchObject({ name: 'USD Coin', symbol: 'USDC', decimals: 6 });
    const unknown = tokens.filter((t) => !rows.some((r) => r.mint === t.mint));
    expect(unknown.length).toBeGreaterThan(0);
    for (const t of unknown) expect([t.name, t.symbol]).toEqual(['', '']);
  });
});
