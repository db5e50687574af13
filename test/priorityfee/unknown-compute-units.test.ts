/**
 * Transactions whose consumed compute units the source does not know (compute_units_consumed null):
 * every figure that needs them is null, the others are computed over what is known
 * (docs/semantics.md, "Unknown consumed compute units"). Three hand-made blocks, expectations worked
 * out by hand; the same rows from engine.ingest and from a CSV dump with empty cells.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.node.js';
import { validateRows } from '../../src/ingest/validate.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';

const SECOND = 1_000_000_000n;
const T0 = 1_700_000_000n * SECOND;
const VOTE = 'Vote111111111111111111111111111111111111111';
const SIGNER = '11111111111111111111111111111112';
const PROGRAM = 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4';

const blocks: BlockRow[] = [100n, 101n, 102n].map((slot, i) => ({ slot, timestamp: T0 + BigInt(i) * SECOND }));

/** [vote, price, limit, consumed] per transaction; null consumed = unknown. */
type Tx = [vote: boolean, price: bigint, limit: number, consumed: bigint | null];
const TXS: Tx[][] = [
  // slot 100: a fee-paying transaction does not know its consumed CUs
  [[true, 0n, 200_000, 2_000n], [false, 10n, 200_000, 150_000n], [false, 20n, 100_000, null], [false, 0n, 200_000, 50_000n]],
  // slot 101: only a vote does not know them
  [[true, 0n, 200_000, null], [false, 30n, 300_000, 100_000n], [false, 0n, 50_000, 20_000n]],
  // slot 102: everything known
  [[true, 0n, 200_000, 3_000n], [false, 40n, 400_000, 300_000n]],
];

const transactions: TransactionRow[] = TXS.flatMap((txs, b) =>
  txs.map(([vote, price, limit, consumed], index) => ({
    slot: blocks[b].slot, index, signature: `sig-${b}-${index}`, signer: SIGNER, program: vote ? VOTE : PROGRAM,
    is_vote: vote, failed: false, compute_unit_price: price, compute_unit_limit: limit, compute_units_consumed: consumed,
    priority_fee: (price * BigInt(limit) + 999_999n) / 1_000_000n,
  })),
);

const TIER_PRICES = { min: '10', low: '10', medium: '20', high: '30', very_high: '40', max: '40' };

async function ingested(rows: TransactionRow[], blockRows = blocks): Promise<Engine> {
  const engine = await createEngine();
  await engine.ingest({ blocks: blockRows, transactions: rows });
  return engine;
}

describe('unknown consumed compute units', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await ingested(transactions);
  });
  afterAll(() => engine.close());

  it('validation keeps a null value and refuses a row without the column', async () => {
    const { compute_units_consumed: _, ...without } = transactions[0];
    const batch = await validateRows('transactions', [transactions[2], without], 'rows');
    expect(batch.rows.numRows).toBe(1);
    expect(batch.rows.getChild('compute_units_consumed')!.get(0)).toBeNull();
    expect(batch.rejections).toEqual([{ source: 'rows', row: 2, field: 'compute_units_consumed', message: 'missing required column' }]);
  });

  it('a block record has null totals when a non-vote transaction does not know them (a vote does not count)', async () => {
    const records = await engine.call('chain::priorityfee::block', { limit: 10 });
    const bySlot = Object.fromEntries(records.map((r) => [r.slot, r]));
    expect(bySlot['100']).toMatchObject({ total_compute_units: null, cu_utilization_pct: null, total_compute_budget: '500000', tx_count: '2' });
    expect(bySlot['101']).toMatchObject({ total_compute_units: '120000', total_compute_budget: '350000' });
    expect(Number(bySlot['101'].cu_utilization_pct)).toBeCloseTo((100 * 120_000) / 350_000, 5);
    expect(bySlot['102']).toMatchObject({ total_compute_units: '300000', cu_utilization_pct: '75' });
  });

  it('the recommendation uses the known values: T_cu_limit, avg_cu_per_tx, fill over the blocks that know it', async () => {
    const [point] = await engine.call('chain::priorityfee::recommendation', { window: '1m' });
    // known fee-paying consumed: 150,000, 100,000, 300,000: median 150,000, T_cu_limit 165,000
    // known non-vote consumed: 150,000 + 50,000 + 100,000 + 20,000 + 300,000 over 5 transactions
    // fills: slot 100 and 101 unknown, slot 102: 100 x 303,000 / 60,000,000
    expect(point).toMatchObject({
      min_price: '10', min_cu_limit: '165000', min_fee: '2', medium_fee: '4', high_fee: '5', max_fee: '7',
      avg_cu_per_tx: '124000', median_block_fill_pct: '0.505', saturated_block_share_pct: '0',
    });
    for (const [tier, price] of Object.entries(TIER_PRICES)) expect(point[`${tier}_price` as keyof typeof point], tier).toBe(price);
  });

  it('a window of blocks none of which knows its fill has a null fill and saturated share (as of, from the store)', async () => {
    const [point] = await engine.call('chain::priorityfee::recommendation', { window: '1m', at: encodeTimestamp(blocks[2].timestamp) });
    expect(point).toMatchObject({
      window_end: encodeTimestamp(blocks[1].timestamp + 1n), median_block_fill_pct: null, saturated_block_share_pct: null,
      // known fee-paying consumed 100,000 and 150,000: nearest-rank median 100,000
      min_cu_limit: '110000', avg_cu_per_tx: String((150_000 + 50_000 + 100_000 + 20_000) / 4),
    });
    const [block] = await engine.call('chain::priorityfee::block', { at: encodeTimestamp(blocks[1].timestamp) });
    expect(block).toMatchObject({ slot: '100', total_compute_units: null, cu_utilization_pct: null });
  });

  it('top_txs gives null consumed compute units where unknown', async () => {
    const top = await engine.call('chain::priorityfee::top_txs', { window: '5m' });
    const bySignature = Object.fromEntries(top.map((t) => [t.signature, t.compute_units_consumed]));
    expect(bySignature).toEqual({ 'sig-0-1': '150000', 'sig-0-2': null, 'sig-1-1': '100000', 'sig-2-1': '300000' });
  });

  it('with no known value at all, every figure that needs one is null; prices still count', async () => {
    const unknown = transactions.filter((t) => t.slot === 100n).map((t) => ({ ...t, compute_units_consumed: null }));
    const only = await ingested(unknown, blocks.slice(0, 1));
    try {
      const [point] = await only.call('chain::priorityfee::recommendation', { window: '1m' });
      expect(point).toMatchObject({
        min_price: '10', max_price: '20', min_cu_limit: null, min_fee: null, max_fee: null,
        avg_cu_per_tx: null, median_block_fill_pct: null, saturated_block_share_pct: null,
      });
    } finally {
      await only.close();
    }
  });

  it('a CSV dump with empty cells answers like the rows ingested with nulls', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-unknown-cu-'));
    const columns = Object.keys(transactions[0]) as (keyof TransactionRow)[];
    const cell = (v: unknown) => (v === null ? '' : String(v));
    writeFileSync(join(dir, 'blocks.csv'), ['slot,timestamp', ...blocks.map((b) => `${b.slot},${b.timestamp}`)].join('\n'));
    writeFileSync(join(dir, 'transactions.csv'), [columns.join(','), ...transactions.map((t) => columns.map((c) => cell(t[c])).join(','))].join('\n'));
    const loaded = await createEngine();
    try {
      const report = await loaded.load(dir);
      expect(report.rejected).toBe(0);
      for (const [method, params] of [
        ['chain::priorityfee::block', { limit: 10 }],
        ['chain::priorityfee::recommendation', { window: '1m', limit: 10 }],
        ['chain::priorityfee::top_txs', { window: '5m' }],
      ] as const) {
        expect(await loaded.call(method, params), method).toEqual(await engine.call(method, params));
      }
    } finally {
      await loaded.close();
    }
  });
});
