/**
 * The order a load commits in: raw getBlock files by the slot read from them (not their names),
 * and in a mixed dump token lists first, then blocks in slot order across raw files and canonical
 * tables (docs/semantics.md, "Loading a dump").
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.node.js';
import { canonicalCsv, load, MINT, rawBlock, tempDir, writeFiles } from './load-fixtures.js';

const TOKEN_LIST = JSON.stringify({
  name: 'Test Token List', timestamp: '2026-01-01T00:00:00Z',
  tokens: [{ chainId: 101, address: MINT, symbol: 'MNT', name: 'Mint Token', decimals: 6 }],
});

describe('raw getBlock files load in slot order', () => {
  it('a.json (slot 361774429) and b.json (slot 254170887): b first, nothing rejected', async () => {
    const dir = writeFiles(tempDir(), {
      'a.json': JSON.stringify(rawBlock(361774428)),
      'b.json': JSON.stringify({ slot: 254170887, block: rawBlock(254170886) }),
    });
    const { report, committed } = await load(dir);
    expect(report.rejected).toBe(0);
    expect(committed.slots).toEqual([254170887n, 361774429n]);
  });

  it('reads the slot from an envelope and from a wrapper whose slot comes after the block', async () => {
    const dir = writeFiles(tempDir(), {
      '1-newest.json': JSON.stringify({ jsonrpc: '2.0', result: rawBlock(503), id: 1 }),
      '2-middle.json': `{"block":${JSON.stringify(rawBlock(300, 2000))},"slot":302}`, // over 1 MiB before its slot: read whole
      '3-oldest.json': JSON.stringify({ slot: 201, block: rawBlock(200) }),
    });
    const { report, committed } = await load(dir);
    expect(report.rejections).toEqual([]);
    expect(committed.slots).toEqual([201n, 302n, 504n]);
  });

  it('orders named in-memory files too (the browser path)', async () => {
    const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
    const { report, committed } = await load([
      { name: 'x.json', bytes: bytes(rawBlock(20)) },
      { name: 'y.json', bytes: bytes(rawBlock(10)) },
    ]);
    expect(report.rejected).toBe(0);
    expect(committed.slots).toEqual([11n, 21n]);
  });
});

describe('a mixed dump: token list, raw blocks and canonical tables in one folder', () => {
  it('labels raw tokens with the list and commits blocks in slot order across both kinds', async () => {
    const tables = canonicalCsv([101, 102, 104]);
    const dir = writeFiles(tempDir(), {
      'solana.tokenlist.json': TOKEN_LIST,
      'blocks.csv': tables.blocks,
      'transactions.csv': tables.transactions,
      'z-oldest.json': JSON.stringify(rawBlock(99)), // slot 100
      'a-middle.json': JSON.stringify(rawBlock(102)), // slot 103
      'm-newest.json': JSON.stringify(rawBlock(104)), // slot 105
    });
    const { report, committed } = await load(dir);
    expect(report.rejections).toEqual([]);
    expect(report.warnings.filter((w) => !/assumed parent_slot \+ 1/.test(w))).toEqual([]);
    expect(committed.slots).toEqual([100n, 101n, 102n, 103n, 104n, 105n]);
    expect(report.blocks).toBe(6);
    // the list's row first, then the raw blocks' rows for the same mint, named by the list
    expect(committed.tokens.filter((t) => t.mint === MINT).map((t) => t.name)).toEqual(['Mint Token', 'Mint Token', 'Mint Token', 'Mint Token']);
  });

  it('keeps a tokens table row over the rows raw blocks make for the same mint', async () => {
    const dir = writeFiles(tempDir(), {
      'tokens.csv': `mint,name,symbol,decimals,supply\n${MINT},Curated,CUR,6,1000\n`,
      'raw.json': JSON.stringify(rawBlock(10)),
    });
    const { report, committed } = await load(dir);
    expect(report.rejected).toBe(0);
    expect(committed.tokens.filter((t) => t.mint === MINT)).toEqual([{ mint: MINT, name: 'Curated' }]);
    expect(committed.slots).toEqual([11n]);
  });
});

describe('a token list with no mainnet token', () => {
  it('loads nothing from it, and the rest as usual', async () => {
    const dir = writeFiles(tempDir(), { 'devnet.tokenlist.json': JSON.stringify({ name: 'Devnet', tokens: [] }), 'raw.json': JSON.stringify(rawBlock(10)) });
    const { report, committed } = await load(dir);
    expect(report.rejected).toBe(0);
    expect(committed.slots).toEqual([11n]);
  });
});

describe('a token list through engine.load', () => {
  it('names the tokens of the raw blocks loaded with it, as chain::market::token answers them', async () => {
    const dir = writeFiles(tempDir(), { 'solana.tokenlist.json': TOKEN_LIST, 'block.json': JSON.stringify(rawBlock(41)) });
    const engine = await createEngine();
    try {
      const report = await engine.load(dir);
      expect(report.rejected).toBe(0);
      expect(await engine.call('chain::market::token', { mint: MINT })).toEqual([
        expect.objectContaining({ mint: MINT, name: 'Mint Token', symbol: 'MNT', decimals: '6' }),
      ]);
    } finally {
      await engine.close();
    }
  });
});
