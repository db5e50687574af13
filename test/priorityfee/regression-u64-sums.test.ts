/**
 * Regression: sums of u64 fields in the priority-fee records saturate at 2^64 - 1, live and as-of
 * alike. Two transactions of one block each with priority_fee 2^64 - 1 used to answer
 * total_priority_fees 36893488147419103230 live (an exact u128 sum) but 18446744073709551614 as-of
 * (the store's UBIGINT column wrapped it). Hand-made blocks; the expected values are worked out here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';

const MAX = (1n << 64n) - 1n;
const WIRE_MAX = '18446744073709551615';
const SECOND = 1_000_000_000n;
const T0 = 1_700_000_040n * SECOND; // a multiple of 60 s: blocks A and B share one 1m window, C opens the next
const SIGNER = '11111111111111111111111111111112';
const PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

const tx = (slot: bigint, index: number, priorityFee: bigint, consumed: bigint, price = 5n): TransactionRow => ({
  slot, index, signature: `sig-${slot}-${index}`, signer: SIGNER, program: PROGRAM, is_vote: false, failed: false,
  compute_unit_price: price, compute_unit_limit: 1_400_000, compute_units_consumed: consumed, priority_fee: priorityFee,
});

const A: BlockRow = { slot: 100n, timestamp: T0 };
const B: BlockRow = { slot: 101n, timestamp: T0 + SECOND };
const C: BlockRow = { slot: 102n, timestamp: T0 + 60n * SECOND };
/** Block A: two fees of 2^64 - 1 (and consumed compute units summing past 2^64 too). */
const txsA = [tx(A.slot, 0, MAX, MAX, MAX), tx(A.slot, 1, MAX, MAX, MAX)];
/** Block B: 2^64 - 1 + 7 alone; the 1m window over A and B sums to 3 x (2^64 - 1) + 7. */
const txsB = [tx(B.slot, 0, MAX, 10n), tx(B.slot, 1, 7n, 20n)];
const txsC = [tx(C.slot, 0, 3n, 30n)];

/** `at` just after a block: its time + 1 ns. */
const after = (block: BlockRow) => encodeTimestamp(block.timestamp + 1n);
const totals = (records: Record<string, unknown>[]) =>
  records.map((r) => [r.slot ?? r.window_start, r.total_priority_fees, r.total_compute_units ?? null]);

describe('u64 sums saturate at 2^64 - 1, live and as-of alike', () => {
  let engine: Engine;
  const live: Record<string, unknown[]> = {};

  beforeAll(async () => {
    engine = await createEngine();
    await engine.ingest({ blocks: [A], transactions: txsA });
    live.blockAfterA = await engine.call('chain::priorityfee::block', { limit: 10 });
    live.feeAfterA = await engine.call('chain::priorityfee::fee', { window: '1m', limit: 10 });
    await engine.ingest({ blocks: [B], transactions: txsB });
    live.blockAfterB = await engine.call('chain::priorityfee::block', { limit: 10 });
    live.feeAfterB = await engine.call('chain::priorityfee::fee', { window: '1m', limit: 10 });
    await engine.ingest({ blocks: [C], transactions: txsC }); // closes the first 1m window: it is stored
    live.blockAfterC = await engine.call('chain::priorityfee::block', { limit: 10 });
    live.feeAfterC = await engine.call('chain::priorityfee::fee', { window: '1m', limit: 10 });
  });
  afterAll(() => engine.close());

  it('Live vs as-of u64 sums differ: chain::priorityfee::block total_priority_fees of two 2^64 - 1 fees is 2^64 - 1 live and as-of', async () => {
    const wire = (records: unknown[]) => totals(records as Record<string, unknown>[]);
    expect(wire(live.blockAfterA)).toEqual([['100', WIRE_MAX, WIRE_MAX]]);
    const asOf = await engine.call('chain::priorityfee::block', { limit: 10, at: after(A) });
    expect(wire(asOf)).toEqual([['100', WIRE_MAX, WIRE_MAX]]);
    expect(asOf).toEqual(live.blockAfterA); // the whole record, as the live answer right after A gave it
  });

  it('Live vs as-of u64 sums differ: chain::priorityfee::fee (1m) total_priority_fees of the block is 2^64 - 1 live and as-of', async () => {
    const [window] = live.feeAfterA as Record<string, unknown>[];
    expect(window).toMatchObject({ total_priority_fees: WIRE_MAX, tx_count: '2' });
    const asOf = await engine.call('chain::priorityfee::fee', { window: '1m', limit: 10, at: after(A) });
    expect(asOf).toEqual(live.feeAfterA); // recomputed from the stored transactions of A alone
  });

  it('Live vs as-of u64 sums differ: a window sum over several blocks saturates identically live, as-of and once stored', async () => {
    const [window] = live.feeAfterB as Record<string, unknown>[];
    expect(window).toMatchObject({ total_priority_fees: WIRE_MAX, tx_count: '4', fee_mean: String((3n * MAX + 7n + 2n) / 4n) });
    // as-of after B once C is newer: the window is recomputed from the store's transactions of A and B
    const asOf = await engine.call('chain::priorityfee::fee', { window: '1m', limit: 10, at: after(B) });
    expect(asOf).toEqual(live.feeAfterB);
    // live after C: the closed window is read back from the store
    expect(totals(live.feeAfterC as Record<string, unknown>[])).toEqual([
      [encodeTimestamp(C.timestamp), '3', null],
      [encodeTimestamp(A.timestamp), WIRE_MAX, null],
    ]);
    expect((live.feeAfterC as unknown[])[1]).toEqual(window);
  });

  it('Live vs as-of u64 sums differ: every block record saturates the same way from memory and from the store', async () => {
    const wire = (records: unknown[]) => totals(records as Record<string, unknown>[]);
    expect(wire(live.blockAfterB)).toEqual([['101', WIRE_MAX, '30'], ['100', WIRE_MAX, WIRE_MAX]]);
    expect(await engine.call('chain::priorityfee::block', { limit: 10, at: after(B) })).toEqual(live.blockAfterB);
    expect(await engine.call('chain::priorityfee::block', { limit: 10, at: after(C) })).toEqual(live.blockAfterC);
  });

  it('Live vs as-of u64 sums differ: the recommendation tier fees saturate too (price 2^64 - 1 x limit)', async () => {
    // block A's prices are 2^64 - 1 and its consumed CUs 2^64 - 1: T_cu_limit is 1,400,000, T_fee would be 1.4 x 2^64
    const [point] = await engine.call('chain::priorityfee::recommendation', { window: '1m', at: after(A) });
    expect(point).toMatchObject({ max_price: WIRE_MAX, max_cu_limit: '1400000', max_fee: WIRE_MAX });
  });
});
