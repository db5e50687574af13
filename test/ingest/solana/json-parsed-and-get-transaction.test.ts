// jsonParsed samples: coinbase/chainstorage, internal/utils/fixtures/parser/solana/ (Apache-2.0), real blocks
// cut down to one transaction each. getTransaction file: sava-software/sava (Apache-2.0), slot 361781236.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const SAMPLES = `${REAL_DATA}blocks/jsonparsed-samples/`;
const GET_TRANSACTION = `${REAL_DATA}transactions/getTransaction_slot361781236_base64.json`;

describe('jsonParsed blocks', () => {
  const files = readdirSync(SAMPLES).filter((f) => f.endsWith('.json'));

  it('finds the samples (an empty folder would register no test below)', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('%s decodes without rejections', (file) => {
    const text = readFileSync(SAMPLES + file, 'utf8');
    const raw = JSON.parse(text);
    const result = decodeGetBlockFile(text, file);
    expect(result.rejections).toEqual([]);
    expect(result.transactions).toHaveLength(raw.transactions.length);
    for (const row of result.transactions) {
      const entry = raw.transactions[row.index];
      expect(row.signature).toBe(entry.transaction.signatures[0]);
      expect(row.signer).toBe(entry.transaction.message.accountKeys[0].pubkey);
      expect(row.failed).toBe(entry.meta.err !== null);
      expect(row.compute_units_consumed).toBe(BigInt(entry.meta.computeUnitsConsumed));
      // one signature each, no precompile: the priority fee is the rest of meta.fee
      expect(row.priority_fee! + 5000n).toBe(BigInt(entry.meta.fee));
    }
    const mints = new Set<string>();
    for (const t of raw.transactions) for (const b of [...t.meta.preTokenBalances, ...t.meta.postTokenBalances]) mints.add(b.mint);
    expect(result.tokens.map((t) => t.mint)).toEqual([...mints].sort());
  });

  it('parsed instructions carry programId and either parsed or base58 data', () => {
    const raw = JSON.parse(readFileSync(SAMPLES + 'chainstorage_block_account_deletion.json', 'utf8'));
    for (const ix of raw.transactions[0].transaction.message.instructions) {
      expect(typeof ix.programId).toBe('string');
      expect(ix.parsed !== undefined || typeof ix.data === 'string').toBe(true);
    }
    const [row] = decodeGetBlockFile(JSON.stringify(raw), 'sample').transactions;
    expect(row).toMatchObject({ compute_unit_price: 8000n, compute_unit_limit: 1_400_000, priority_fee: 11_200n });
  });
});

describe('a getTransaction response as a one-transaction block', () => {
  const result = JSON.parse(readFileSync(GET_TRANSACTION, 'utf8')).result;
  const wrapped = JSON.stringify({ slot: result.slot, block: { blockTime: result.blockTime, parentSlot: result.slot - 1, transactions: [result] } });

  it('has fee 7072 = 5000 + priority fee, limit 137,822, price 15,030', () => {
    const decoded = decodeGetBlockFile(wrapped, 'getTransaction_slot361781236_base64.json');
    expect(decoded.rejections).toEqual([]);
    const [row] = decoded.transactions;
    expect(row).toMatchObject({
      slot: 361781236n,
      compute_unit_limit: 137_822,
      compute_unit_price: 15_030n,
      compute_units_consumed: 111_048n,
      priority_fee: 2072n,
      is_vote: false,
      failed: false,
    });
    expect(5000n + row.priority_fee!).toBe(BigInt(result.meta.fee));
    expect(result.meta.fee).toBe(7072);
  });

  it('is refused, with a hint, when passed as if it were a block', () => {
    const decoded = decodeGetBlockFile(readFileSync(GET_TRANSACTION, 'utf8'), 'tx.json');
    expect(decoded.transactions).toEqual([]);
    expect(decoded.rejections).toHaveLength(1);
    expect(decoded.rejections[0]).toMatchObject({ source: 'tx.json', row: 1, field: 'result.transactions' });
    expect(decoded.rejections[0].message).toContain('getTransaction result');
  });
});
