/**
 * Text columns built from row objects (src/ingest/arrow.ts): encoded a piece of rows at a time, so
 * that a block's key lists do not hold the thread for a millisecond. Columns over several pieces,
 * with nulls and multi-byte text in some pieces and not in others, read back as written.
 */
import { describe, expect, it } from 'vitest';
import { rowsToTable } from '../../src/ingest/arrow.js';
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';

const text = (i: number) => (i % 1000 < 3 ? `lëader-${i}-€-😀` : `leader${i}`);

describe('text columns from row objects', () => {
  it('a nullable string column of 5,000 rows reads back, nulls and multi-byte text in some pieces', () => {
    const rows: BlockRow[] = Array.from({ length: 5_000 }, (_, i) => ({
      slot: BigInt(i), timestamp: BigInt(i) * 400_000_000n, parent_slot: null, block_height: null, block_cu_limit: null,
      leader: i % 3 === 0 || (i >= 2_100 && i < 2_300) ? null : text(i),
    }));
    const leaders = rowsToTable('blocks', rows).getChild('leader')!;
    expect(leaders.length).toBe(rows.length);
    expect(Array.from({ length: rows.length }, (_, i) => leaders.get(i))).toEqual(rows.map((r) => r.leader));
  });

  it('key lists over several pieces read back, empty and absent lists among them', () => {
    const key = (i: number, k: number) => `${(i * 7 + k).toString(36).padStart(8, '1')}${k % 50 === 0 ? 'é' : ''}`;
    const rows = Array.from({ length: 1_500 }, (_, i): TransactionRow => ({
      slot: 1n, index: i, signature: `sig${i}`, signer: 'signer', program: 'program', is_vote: false, failed: false,
      compute_unit_price: 0n, compute_unit_limit: 1, compute_units_consumed: 1n, priority_fee: null,
      writable_accounts: i % 11 === 0 ? [] : Array.from({ length: 1 + (i % 6) }, (_, k) => key(i, k)),
    }));
    const lists = rowsToTable('transactions', rows).getChild('writable_accounts')!;
    const total = rows.reduce((n, r) => n + r.writable_accounts!.length, 0);
    expect(total).toBeGreaterThan(2 * 2048);
    expect(Array.from({ length: rows.length }, (_, i) => [...(lists.get(i) ?? [])])).toEqual(rows.map((r) => r.writable_accounts));
  });
});
