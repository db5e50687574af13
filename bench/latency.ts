/**
 * Query latency of every method with limit 1 (the latest answer, what most calls ask for), over a
 * local call (`engine.call`, issued from a new macrotask like an arriving request) and over a MessagePort (`engine.serve` + `connect` on a MessageChannel
 * in the same thread: the envelope is encoded, posted and decoded both ways), on an engine holding
 * five minutes of the synthetic market; first idle, then with ingestion running: a loop pushing
 * the next block through `engine.ingest` one at a time (a live feed at full speed, sharing the
 * thread with the queries, as it does in a service). The feed's blocks are generated before it
 * starts (64 of them, given the next slot and time each time one is pushed again): generating a
 * block takes about a millisecond of the same thread, the benchmark's cost and not the engine's.
 */
import { MessageChannel } from 'node:worker_threads';
import { Bench } from 'tinybench';
import { SOL_MINT } from '../src/generate/constants.js';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../src/generate/market.js';
import { connect, createEngine, type Engine } from '../src/index.node.js';
import { elapsedMs, statsOf, type Figure, type SubjectResult, type Skipped, type Target } from './harness.js';
import type { BenchOptions } from './options.js';

/** Limit-1 params of every method (the token method has no limit: one mint). */
export const LATENCY_CALLS: readonly { method: string; params: Record<string, unknown> }[] = [
  { method: 'chain::market::token', params: { mint: SOL_MINT } },
  { method: 'chain::priorityfee::block', params: { limit: 1 } },
  { method: 'chain::priorityfee::fee', params: { window: '1m', limit: 1 } },
  { method: 'chain::priorityfee::recommendation', params: { window: '1m', limit: 1 } },
  { method: 'chain::priorityfee::top_txs', params: { window: '5m', limit: 1 } },
  { method: 'chain::market::block', params: { limit: 1 } },
  { method: 'chain::market::ohlcv', params: { window: '1m', limit: 1 } },
  { method: 'chain::market::volume', params: { window: '1m', limit: 1 } },
  { method: 'chain::market::vwap', params: { window: '1m', limit: 1 } },
  { method: 'chain::market::twap', params: { window: '1m', limit: 1 } },
  { method: 'chain::market::trades', params: { limit: 1 } },
  { method: 'chain::market::ingestion', params: { limit: 1 } },
];

/** The extra call of the recommendation figure: the 15m window, limit 1000, answered from memory. */
const RECOMMENDATION_1000 = { method: 'chain::priorityfee::recommendation', params: { window: '15m', limit: 1000 } };

type Caller = (method: string, params: Record<string, unknown>) => Promise<unknown[]>;

/** Feeds generated blocks to the engine, `perCall` blocks per ingest call. */
async function feed(engine: Engine, blocks: Iterator<GeneratedBlock>, count: number, perCall: number): Promise<number> {
  let fed = 0;
  while (fed < count) {
    const part: GeneratedBlock[] = [];
    while (part.length < perCall && fed + part.length < count) {
      const next = blocks.next();
      if (next.done) break;
      part.push(next.value);
    }
    if (part.length === 0) break;
    await engine.ingest({
      blocks: part.map((b) => b.block), transactions: part.flatMap((b) => b.transactions), trades: part.flatMap((b) => b.trades),
    });
    fed += part.length;
  }
  return fed;
}

/**
 * Blocks generated ahead, pushed again and again as the chain's next blocks: each time one is
 * taken its rows are given the next slot and block time (the engine has read them by then: its
 * ingest of the previous block has settled).
 */
class BlockPool {
  #next = 0;
  #slot: bigint;
  #time: bigint;
  #height: bigint;

  constructor(private readonly blocks: readonly GeneratedBlock[]) {
    const last = blocks.at(-1)!.block;
    [this.#slot, this.#time, this.#height] = [last.slot, last.timestamp, last.block_height ?? 0n];
  }

  take(): GeneratedBlock {
    const generated = this.blocks[this.#next++ % this.blocks.length]!;
    const slot = ++this.#slot;
    const timestamp = (this.#time += 400_000_000n);
    Object.assign(generated.block, { slot, timestamp, parent_slot: slot - 1n, block_height: ++this.#height });
    for (const row of generated.transactions) row.slot = slot;
    for (const row of generated.trades) Object.assign(row, { slot, timestamp });
    return generated;
  }
}

/** What a call answers once: rows, or why it cannot be measured. */
async function probe(call: Caller, method: string, params: Record<string, unknown>): Promise<string | undefined> {
  try {
    const rows = await call(method, params);
    return rows.length > 0 ? undefined : 'not yet implemented: answers no data on an engine holding five minutes of blocks, transactions and trades';
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return `not yet implemented: the call fails (${text.slice(0, 160)})`;
  }
}

/** Measures every call over each caller; returns stats by `${caller}|${method}`. */
async function run(callers: Record<string, Caller>, calls: typeof LATENCY_CALLS, quick: boolean) {
  const bench = new Bench({ iterations: quick ? 20 : 300, time: quick ? 0 : 400, warmupIterations: 10, warmupTime: 0, throws: true });
  for (const [name, call] of Object.entries(callers)) {
    for (const { method, params } of calls) bench.add(`${name}|${method}|${JSON.stringify(params)}`, () => call(method, params));
  }
  await bench.run();
  return new Map(bench.tasks.map((t) => [t.name, statsOf(t)]));
}

/** The latency figures: one per method (and the recommendation's limit-1000 answer). */
export async function latencyFigures(options: BenchOptions): Promise<Figure[]> {
  const history = options.quick ? 40 : 750; // 750 blocks: five minutes of slots
  const engine = await createEngine();
  const { port1, port2 } = new MessageChannel();
  engine.serve(port1);
  const client = connect(port2);
  try {
    await engine.ingest({ tokens: generateTokens() });
    const blocks = generateBlocks({ minutes: 100_000, seed: 23 })[Symbol.iterator]();
    const loadStart = process.hrtime.bigint();
    await feed(engine, blocks, history, 25);
    const loadSeconds = elapsedMs(loadStart) / 1000;

    // A local call is issued from a fresh macrotask, as a request arriving in a service would be: issued
    // from the benchmark's own promise chain it would slip in between the ingest loop's awaits and
    // never wait for a block being ingested, which no caller from outside that chain can do.
    const callers: Record<string, Caller> = {
      local: (m, p) => new Promise((resolve, reject) => setImmediate(() => engine.call(m, p).then(resolve, reject))),
      port: (m, p) => client.call(m, p),
    };
    const all = [...LATENCY_CALLS, RECOMMENDATION_1000];
    const missing = new Map<string, string>();
    for (const { method, params } of all) {
      const why = await probe(callers.local!, method, params);
      if (why) missing.set(`${method}|${JSON.stringify(params)}`, why);
    }
    const measurable = all.filter(({ method, params }) => !missing.has(`${method}|${JSON.stringify(params)}`));

    const idle = await run(callers, measurable, options.quick);
    const pool = new BlockPool(Array.from({ length: 64 }, () => blocks.next().value as GeneratedBlock));
    const fromPool = { next: () => ({ done: false, value: pool.take() }) } as Iterator<GeneratedBlock>;
    let stop = false;
    let ingested = 0;
    const busyStart = process.hrtime.bigint();
    const ingesting = (async () => {
      while (!stop) ingested += await feed(engine, fromPool, 1, 1);
    })();
    const busy = await run(callers, measurable, options.quick);
    stop = true;
    await ingesting;
    const busySeconds = elapsedMs(busyStart) / 1000;

    return all.map(({ method, params }) => {
      const key = `${method}|${JSON.stringify(params)}`;
      const subjects: SubjectResult[] = [];
      const skipped: Skipped[] = [];
      const conditions = [
        ['local', 'local call', idle], ['local-ingesting', 'local call, ingestion running', busy],
        ['port', 'MessagePort', idle], ['port-ingesting', 'MessagePort, ingestion running', busy],
      ] as const;
      for (const [id, label, stats] of conditions) {
        const s = stats.get(`${id.split('-')[0]}|${key}`);
        if (s) subjects.push({ id, label, stats: s, per_second: 1000 / s.median_ms });
        else skipped.push({ id, label, reason: missing.get(key) ?? 'not measured' });
      }
      const p99 = (id: string) => subjects.find((s) => s.id === id)?.stats.p99_ms ?? null;
      const limit = (id: string, bound: number, text: string): Target => {
        const measured = p99(id);
        return { text, kind: 'max-latency', against: id, required: bound, measured, met: measured === null ? null : measured < bound };
      };
      const limit1 = params.limit === 1 || method === 'chain::market::token';
      const targets = limit1 ? [
        limit('local', 1, 'local call p99 < 1 ms'), limit('port', 2, 'MessagePort p99 < 2 ms'),
        limit('local-ingesting', 1, 'local call p99 < 1 ms while ingesting'), limit('port-ingesting', 2, 'MessagePort p99 < 2 ms while ingesting'),
      ] : [];
      const name = method.replace('chain::', '');
      return {
        id: `latency.${name}${limit1 ? '' : '-' + String(params.window) + '-limit-' + String(params.limit)}`,
        family: 'latency',
        title: `${name} (${Object.entries(params).map(([k, v]) => `${k} ${v === SOL_MINT ? 'SOL' : String(v)}`).join(', ')})`,
        size: `engine holding ${history} blocks (${(loadSeconds).toFixed(1)} s to ingest)`,
        work: { unit: 'calls', count: 1 },
        subjects,
        skipped,
        targets,
        values: { ingest_blocks_per_s_while_querying: ingested / busySeconds },
        notes: [],
      } satisfies Figure;
    });
  } finally {
    client.close();
    port1.close();
    await engine.close();
  }
}
