/**
 * A chunk's transaction forms (src/ingest/transaction-forms.ts): the per-block columns made from a
 * table's numbers against a plain reference (rows out of order, several slots, unknown consumed
 * units); the kernel worker making the same forms from transferred copies while the table stays
 * whole; and the pipeline taking forms started ahead only for the rows it commits: a commit that
 * rejects a row, or whose maker failed, makes its own.
 */
import { describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/generate/market.js';
import { canonicalTable } from '../store/fixtures.js';
import { chunkTransactions, transactionNumbers } from '../../src/ingest/block-columns.js';
import { IngestPipeline, type ChunkObserver, type ChunkView } from '../../src/ingest/pipeline.js';
import { transactionForms, type TransactionForms } from '../../src/ingest/transaction-forms.js';
import { validateRows } from '../../src/ingest/validate.js';
import { startNodeKernelWorker } from '../../src/kernels/worker-node.js';
import type { CommitUnit, Store } from '../../src/store/store.js';
import { mulberry32 } from '../helpers/prng.js';

const blocks = [...generateBlocks({ blocks: 6, txPerBlock: 150, seed: 'forms' })];
type Tx = (typeof blocks)[number]['transactions'][number];

/** The blocks' transactions shuffled, some with unknown consumed units. */
function shuffled(seed: number): Tx[] {
  const random = mulberry32(seed);
  const rows = blocks.flatMap((b) => b.transactions).map((tx) => (random() < 0.1 ? { ...tx, compute_units_consumed: null } : tx));
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows as Tx[];
}

describe('transaction forms', () => {
  const inOrder = blocks.flatMap((b) => b.transactions) as Tx[];
  it.each([['out of order', shuffled(1)], ['in order (its columns kept as they are)', inOrder]])('are per-block columns in (slot, index) order, each row pointing back at its table row: %s', (_, rows) => {
    const columns = chunkTransactions(transactionNumbers(canonicalTable('transactions', rows)));
    const order = rows.map((tx, row) => ({ tx, row })).sort((a, b) =>
      a.tx.slot !== b.tx.slot ? (a.tx.slot < b.tx.slot ? -1 : 1) : a.tx.index - b.tx.index);
    const slots = [...new Set(order.map(({ tx }) => tx.slot))];
    expect(columns.slots).toEqual(slots);
    expect(Array.from(columns.offsets)).toEqual([...slots.map((s) => order.findIndex(({ tx }) => tx.slot === s)), rows.length]);
    expect(Array.from(columns.row)).toEqual(order.map(({ row }) => row));
    expect(Array.from(columns.index)).toEqual(order.map(({ tx }) => tx.index));
    expect(Array.from(columns.isVote)).toEqual(order.map(({ tx }) => (tx.is_vote ? 1 : 0)));
    expect(Array.from(columns.computeUnitPrice)).toEqual(order.map(({ tx }) => tx.compute_unit_price));
    expect(Array.from(columns.priorityFee)).toEqual(order.map(({ tx }) => tx.priority_fee));
    expect(Array.from(columns.computeUnitLimit)).toEqual(order.map(({ tx }) => tx.compute_unit_limit));
    expect(Array.from(columns.computeUnitsConsumed)).toEqual(order.map(({ tx }) => tx.compute_units_consumed ?? 0n));
    expect(Array.from(columns.consumedKnown)).toEqual(order.map(({ tx }) => (tx.compute_units_consumed === null ? 0 : 1)));
  });

  it('are the same made by the kernel worker from transferred copies, the table left whole (one chunk or several)', async () => {
    const rows = shuffled(2);
    const half = Math.floor(rows.length / 2);
    const oneChunk = canonicalTable('transactions', rows);
    const chunked = canonicalTable('transactions', rows.slice(0, half)).concat(canonicalTable('transactions', rows.slice(half)));
    expect(chunked.getChild('slot')!.data.length).toBe(2);
    const client = await startNodeKernelWorker();
    try {
      for (const table of [oneChunk, chunked]) {
        const expected = transactionForms(table);
        const sent = transactionNumbers(table, true);
        const made = await client.transactionForms(sent);
        expect(sent.slot.length, 'transferred, not cloned').toBe(0);
        expect(made).toEqual(expected);
        for (const name of ['slot', 'index', 'compute_unit_price', 'priority_fee', 'compute_unit_limit', 'compute_units_consumed']) {
          expect(table.getChild(name)!.toArray().length, `the table keeps its ${name}`).toBe(table.numRows);
        }
        expect(transactionForms(table), 'the table unchanged').toEqual(expected);
      }
    } finally {
      await client.close();
    }
  });
});

describe('the pipeline and forms started ahead', () => {
  /** A pipeline over a store that keeps the committed units, with `makeForms`, and what it committed. */
  function pipelineWith(makeForms?: (forms: TransactionForms) => Promise<TransactionForms>) {
    const units: CommitUnit[] = [];
    const views: ChunkView[] = [];
    const store = { commit: async (unit: CommitUnit) => void units.push(unit), appendRecords: async () => {} } as unknown as Store;
    const observer: ChunkObserver = { prepare: (view) => (views.push(view), { records: [], apply() {} }) };
    const made: TransactionForms[] = [];
    const pipeline = new IngestPipeline(store, [observer], undefined, makeForms && (async (numbers) => {
      const forms = transactionForms(numbers);
      made.push(forms);
      return makeForms(forms);
    }));
    return { pipeline, units, views, made };
  }
  const chunk = async (transactions: readonly object[]) => [
    await validateRows('blocks', blocks.map((b) => b.block), 'test'),
    await validateRows('transactions', transactions as Record<string, unknown>[], 'test'),
  ];
  const rows = blocks.flatMap((b) => b.transactions);

  it('commits the forms made ahead when every row is kept', async () => {
    const { pipeline, units, views, made } = pipelineWith(async (forms) => forms);
    const report = await pipeline.commit(pipeline.start(await chunk(rows)));
    expect(report.rejected).toBe(0);
    expect(made).toHaveLength(1);
    expect(units[0]!.transactions!.columns).toBe(made[0]!.fees);
    expect(views[0]!.transactionColumns).toBe(made[0]!.columns);
  });

  it('makes its own for the rows it keeps when it rejects one, or when the maker failed', async () => {
    const clean = pipelineWith();
    await clean.pipeline.commit(await chunk(rows));
    const expected = clean.units[0]!.transactions!;

    // a second row for a transaction: rejected, so the forms made ahead (with it) are not the chunk's
    const repeated = { ...rows[7]!, compute_unit_price: 10n ** 15n, priority_fee: 10n ** 15n };
    const rejecting = pipelineWith(async (forms) => forms);
    const report = await rejecting.pipeline.commit(rejecting.pipeline.start(await chunk([...rows, repeated])));
    expect(report.rejected).toBe(1);
    expect(rejecting.made).toHaveLength(1);
    expect(rejecting.units[0]!.transactions!.columns).toEqual(expected.columns);
    expect(rejecting.units[0]!.transactions!.kept).toEqual(expected.kept);

    const failing = pipelineWith(async () => {
      throw new Error('worker gone');
    });
    expect((await failing.pipeline.commit(await chunk(rows))).ingested).toBe(blocks.length + rows.length);
    expect(failing.made).toHaveLength(1);
    expect(failing.units[0]!.transactions!.columns).toEqual(expected.columns);
  });
});
