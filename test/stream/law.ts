/**
 * The consistency law of streams, checked over one transport: subscribe to every method (with
 * representative params, query-only ones included), replay a seeded dump at speed Infinity, then
 * for every block B of the dump ask the same query as of just after B (at = t_B + 1 ns):
 * - every data point pushed after B equals, as wire JSON, the point with the same id in that
 *   answer, and the push keeps the answer's order;
 * - every point of that answer that is new or differs from the answer as of the block before is
 *   in the push (nothing changes without a push), and there is no push when nothing changed.
 * Token pushes carry no block (tokens are not versioned in time): they equal the live answer.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUPS_MINT, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { generateBlocks, type GeneratedBlock } from '../../src/generate/market.js';
import { writeDump } from '../../src/generate/write-dump.js';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { METHOD_TABLE } from '../../src/methods/index.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import type { PushParams } from '../../src/stream/push.js';
import { busiestAccounts } from '../../src/generate/accounts.js';
import { TRANSPORTS, type Transport } from '../helpers/transports.js';

type Wire = Record<string, unknown>;

/** The seeded market of the law: 80 seconds (1m fee windows and candles roll over), small blocks. */
export const LAW_MARKET = { minutes: 1.35, txPerBlock: 30, seed: 'streams' } as const;

/** Writes the market as an NDJSON dump; returns its folder and its blocks. */
export async function lawDump(): Promise<{ dir: string; blocks: GeneratedBlock[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-law-'));
  await writeDump(LAW_MARKET, (table) => createTableFileWriter(join(dir, `${table}.ndjson`), 'ndjson', table));
  return { dir, blocks: [...generateBlocks(LAW_MARKET)] };
}

/** The law market's two busiest write-locked accounts (local fee markets). */
const [HOT, WARM] = busiestAccounts(generateBlocks(LAW_MARKET), 2);

/** Every method, some twice, with the params a subscriber would give (limit/from/to are ignored by streams). */
export const LAW_SUBSCRIPTIONS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['chain::market::token', {}],
  ['chain::priorityfee::block', { limit: 3 }],
  ['chain::priorityfee::fee', { window: '1m' }],
  ['chain::priorityfee::recommendation', { window: '10s' }],
  ['chain::priorityfee::top_txs', { window: '5m' }],
  ['chain::market::block', {}],
  ['chain::market::block', { base: SOL_MINT, quote: USDC_MINT }],
  ['chain::market::ohlcv', { window: '10s', limit: 1 }],
  ['chain::market::ohlcv', { window: '1m', base: PUPS_MINT, from: 0, to: '2030-01-01' }],
  ['chain::market::volume', { window: '30s' }],
  ['chain::market::vwap', { window: '1m', quote: USDC_MINT }],
  ['chain::market::twap', { window: '10s' }],
  ['chain::market::trades', {}],
  ['chain::market::trades', { quote: SOL_MINT }],
  ['chain::market::ingestion', {}],
  ['chain::priorityfee::estimate', { accounts: [HOT, WARM], lookback_slots: 20 }],
  ['chain::priorityfee::estimate', { accounts: [WARM], include_vote: true }],
  ['chain::priorityfee::recent', { accounts: [HOT] }],
  ['chain::priorityfee::recent', {}],
];

const QUERY_ONLY = ['limit', 'from', 'to'];

/** The params of the as-of query that a push is compared with: the stream's params, the largest limit. */
function queryParams(method: string, params: Record<string, unknown>): Record<string, unknown> {
  const out = Object.fromEntries(Object.entries(params).filter(([k]) => !QUERY_ONLY.includes(k)));
  const limit = METHOD_TABLE.get(method)!.params.limit;
  if (limit?.kind === 'limit') out.limit = limit.max;
  return out;
}

/** Subscribes to every LAW_SUBSCRIPTIONS entry, replays the dump, checks the law; returns push counts. */
export async function checkLaw(t: Transport, dir: string, blocks: readonly GeneratedBlock[]): Promise<number[]> {
  const pushes = LAW_SUBSCRIPTIONS.map(() => [] as PushParams[]);
  const ids: number[] = [];
  for (const [k, [method, params]] of LAW_SUBSCRIPTIONS.entries()) {
    const subscription = await t.subscribe(method, params, (push) => void pushes[k]!.push(push));
    ids.push(subscription.id);
  }
  expect(new Set(ids).size).toBe(ids.length);
  const report = (await t.replay(dir)) as { blocks: number };
  expect(report.blocks).toBe(blocks.length);

  for (const [k, [method, params]] of LAW_SUBSCRIPTIONS.entries()) {
    const label = `${method} ${JSON.stringify(params)}`;
    const list = pushes[k]!;
    for (const push of list) {
      expect(push.subscription, label).toBe(ids[k]);
      expect(push.error, label).toBeUndefined();
    }
    const query = queryParams(method, params);
    if (method === 'chain::market::token') {
      expect(list, label).toHaveLength(1);
      expect(list[0]!.block).toBeUndefined();
      expect(list[0]!.result).toEqual(await t.call(method, query));
      continue;
    }
    const bySlot = new Map(list.map((p) => [p.block!.slot, p]));
    expect(bySlot.size, `${label}: one push per block at most`).toBe(list.length);
    let before = new Map<unknown, string>();
    let changedBlocks = 0;
    for (const { block } of blocks) {
      const at = encodeTimestamp(block.timestamp + 1n);
      const answer = (await t.call(method, { ...query, at })) as Wire[];
      const push = bySlot.get(String(block.slot));
      bySlot.delete(String(block.slot));
      const where = `${label} after slot ${block.slot}`;
      const now = new Map(answer.map((r) => [r.id, JSON.stringify(r)]));
      const changed = answer.filter((r) => before.get(r.id) !== now.get(r.id)).map((r) => r.id);
      before = now;
      if (!push) {
        expect(changed, `${where}: the answer changed without a push`).toEqual([]);
        continue;
      }
      changedBlocks++;
      expect(push.block!.timestamp, where).toBe(encodeTimestamp(block.timestamp));
      const result = push.result as Wire[];
      expect(result.length, where).toBeGreaterThan(0);
      const position = new Map(answer.map((r, i) => [r.id, i]));
      let last = -1;
      for (const record of result) {
        const i = position.get(record.id);
        expect(i, `${where}: pushed point ${record.id} is not in the answer`).toBeDefined();
        expect(record, where).toEqual(answer[i!]);
        expect(i!, `${where}: push order`).toBeGreaterThan(last);
        last = i!;
      }
      const pushed = new Set(result.map((r) => r.id));
      expect(changed.filter((id) => !pushed.has(id)), `${where}: changed points missing from the push`).toEqual([]);
      expect(changed.length, `${where}: a push without a change`).toBeGreaterThan(0);
    }
    expect([...bySlot.keys()], `${label}: pushes for blocks not in the dump`).toEqual([]);
    expect(changedBlocks, `${label}: pushes`).toBeGreaterThan(0);
  }
  return pushes.map((p) => p.length);
}

/** The law over one transport of TRANSPORTS (one test file each, so that vitest runs them side by side). */
export function describeLaw(transport: string): void {
  describe(`streams over ${transport}`, () => {
    let t: Transport;
    let dump: { dir: string; blocks: GeneratedBlock[] };
    beforeAll(async () => {
      dump = await lawDump();
      t = await TRANSPORTS[transport]!({ options: { minSamples: 10 } });
    });
    afterAll(() => t?.close());

    it('pushes after every block what the query answers as of just after it, for every method', { timeout: 240_000 }, async () => {
      const counts = await checkLaw(t, dump.dir, dump.blocks);
      expect(counts).toHaveLength(LAW_SUBSCRIPTIONS.length);
    });
  });
}
