/**
 * Every method against the independent oracle (test/oracle): two engines over the same seeded data
 * set (data.ts), one fed block by block and in chunks through `ingest` with custom options (a
 * custom stablecoin list with USDT first, a block CU limit, saturatedFillPct, minSamples, outlier
 * threshold), one through `load` of NDJSON with the defaults and 5 minutes of retention, and one
 * through `load` of Parquet files in small row groups (the transactions' text and accounts left
 * with the decoder; the first half of the blocks with their priority fees given, the rest derived,
 * which rebuilds those chunks with their text taken back). Every
 * window value each method accepts, as of several times (before the data, on a block's exact
 * time, across window boundaries, in gaps, after the data) and live, with limits and pair filters;
 * field for field on the wire envelope.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { priorityFeeOf } from '../../src/schema/amounts.js';
import type { TableName, TransactionRow } from '../../src/schema/tables.js';
import { differences } from './compare.js';
import { buildOracleData, ndjsonFiles, SOL, USDC, USDT } from './data.js';
import { FEE_WINDOWS, MARKET_WINDOWS, RECO_WINDOWS, wireTime } from './format.js';
import { goldenQueries } from './golden-queries.js';
import { GOLDEN_RECORDS } from './golden-records.js';
import { Oracle, type OracleParams } from './oracle.js';

const data = buildOracleData();
const utc = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;
const blockTime = (i: number) => data.blocks[i]!.timestamp;
const midnightBlock = data.blocks.findIndex((b) => b.timestamp >= utc('2024-03-14T00:00:00Z'));

/** As-of times: before the data, exact block times, window boundaries, gaps, fractions of a second, after the data. */
const AT: (bigint | undefined)[] = [
  undefined,
  utc('2024-03-13T23:00:00Z'),
  blockTime(3),
  blockTime(midnightBlock),
  utc('2024-03-14T00:00:00Z') + 1n,
  utc('2024-03-14T00:03:10Z') + 250_000_000n,
  utc('2024-03-14T00:20:00Z'),
  utc('2024-03-14T00:32:00Z') + 500_000_001n,
  utc('2024-03-14T02:00:30Z'),
  utc('2024-03-14T02:01:45Z') + 123_456_789n,
  utc('2030-01-01T00:00:00Z'),
];

/** `at` on the wire: ISO-8601 for most, Unix seconds (a JSON number or string) for some. */
function wireAt(at: bigint, i: number): string | number {
  if (i % 3 === 1 && at % 1_000_000_000n === 0n) return Number(at / 1_000_000_000n);
  if (i % 3 === 2) return `${at / 1_000_000_000n}.${String(at % 1_000_000_000n).padStart(9, '0')}`;
  return wireTime(at);
}

interface Subject {
  name: string;
  engine: () => Engine;
  oracle: Oracle;
}

let ingested: Engine;
let loaded: Engine;
let fromParquet: Engine;
let parquetDir: string;
const SUBJECTS: Subject[] = [
  {
    name: 'ingest, custom options',
    engine: () => ingested,
    oracle: new Oracle(data, {
      minSamples: 20, blockCuLimit: 10_000_000n, saturatedFillPct: 80, stablecoins: [USDT, USDC, data.mints.XUSD], outlierThreshold: 0.2,
    }),
  },
  {
    name: 'load, defaults, retain 5m',
    engine: () => loaded,
    oracle: new Oracle(data, {
      minSamples: 100, blockCuLimit: 60_000_000n, saturatedFillPct: 90, stablecoins: [USDC, USDT], outlierThreshold: 0.25,
      retainNs: 300_000_000_000n,
    }),
  },
  {
    name: 'load of Parquet, defaults',
    engine: () => fromParquet,
    oracle: new Oracle(data, { minSamples: 100, blockCuLimit: 60_000_000n, saturatedFillPct: 90, stablecoins: [USDC, USDT], outlierThreshold: 0.25 }),
  },
];

/** The data set as Parquet files of 300-row groups; the first half of the blocks' transactions with their priority fees given. */
async function writeParquet(dir: string): Promise<void> {
  const write = async (table: TableName, rows: object[]) => {
    const writer = await createTableFileWriter(join(dir, `${table}.parquet`), 'parquet', table, { rowGroupRows: 300 });
    await writer.write(rows as never);
    await writer.close();
  };
  const half = data.blocks[data.blocks.length >> 1]!.slot;
  await write('tokens', data.tokens);
  await write('blocks', data.chunks.flatMap((c) => c.blocks));
  await write('transactions', data.chunks.flatMap((c) => c.transactions).map((t) => {
    const tx = t as unknown as TransactionRow;
    return tx.slot < half && tx.priority_fee == null ? { ...tx, priority_fee: priorityFeeOf(tx.compute_unit_price, tx.compute_unit_limit) } : tx;
  }));
  await write('trades', data.chunks.flatMap((c) => c.trades));
}

beforeAll(async () => {
  ingested = await createEngine({
    minSamples: 20, blockCuLimit: 10_000_000, saturatedFillPct: 80, stablecoins: [USDT, USDC, data.mints.XUSD], outlierThreshold: 0.2,
  });
  await ingested.ingest({ tokens: data.tokens.map(({ supply, ...t }) => (supply === null ? t : { ...t, supply })) });
  let rejected = 0;
  for (const chunk of data.chunks) {
    const report = await ingested.ingest(chunk);
    rejected += report.rejected;
    for (const r of report.rejections) expect(r.field).toBe('timestamp');
  }
  expect(rejected).toBe(data.rejectedTrades.length);
  loaded = await createEngine({ retain: '5m' });
  const report = await loaded.load(ndjsonFiles(data));
  expect(report.rejected).toBe(data.rejectedTrades.length);
  parquetDir = mkdtempSync(join(tmpdir(), 'chainlens-oracle-parquet-'));
  await writeParquet(parquetDir);
  fromParquet = await createEngine();
  const parquetReport = await fromParquet.load(parquetDir, { batchRows: 250 });
  expect(parquetReport.rejected).toBe(data.rejectedTrades.length);
}, 120_000);

afterAll(async () => {
  await ingested?.close();
  await loaded?.close();
  await fromParquet?.close();
  if (parquetDir) rmSync(parquetDir, { recursive: true, force: true });
});

/** Asks the engine (JSON-RPC envelope) and the oracle, and compares. */
async function agree(subject: Subject, method: string, params: OracleParams, atIndex = 0): Promise<void> {
  const wire: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    wire[k] = k === 'at' || k === 'from' || k === 'to' ? wireAt(v as bigint, atIndex) : v;
  }
  const [entry] = (await subject.engine().request({ jsonrpc: '2.0', id: 7, method, params: wire })) as {
    result?: Record<string, unknown>[]; error?: { code: number; data?: { param?: string } };
  }[];
  const want = subject.oracle.answer(method, params);
  const where = `${subject.name}: ${method} ${JSON.stringify(wire)}`;
  if (!Array.isArray(want)) {
    expect(entry!.error?.code, where).toBe(want.error);
    expect(entry!.error?.data?.param, where).toBe(want.param);
    return;
  }
  expect(entry!.error, where).toBeUndefined();
  let got = entry!.result as Record<string, string | number | boolean | null>[];
  if (method === 'chain::market::ingestion') {
    for (const r of got) {
      expect(r.started_at, where).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(r.took, where).toMatch(/^PT(\d+(\.\d+)?S|0S)$/);
    }
    got = got.map(({ started_at, took, ...rest }) => rest);
  }
  expect(differences(got, want), where).toEqual([]);
}

const FILTERS: OracleParams[] = [{}, { base: SOL }, { quote: USDT }, { base: SOL, quote: USDC }];

describe.each(SUBJECTS)('engine against the oracle: $name', (subject) => {
  it('chain::priorityfee::block, with limits, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      for (const limit of [undefined, 7, 1000]) await agree(subject, 'chain::priorityfee::block', { at, limit }, i);
    }
  });

  it('chain::priorityfee::fee: every window, default window, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      await agree(subject, 'chain::priorityfee::fee', { at }, i);
      for (const window of FEE_WINDOWS) await agree(subject, 'chain::priorityfee::fee', { window, at, limit: 1000 }, i);
    }
  });

  it('chain::priorityfee::recommendation: every window, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      await agree(subject, 'chain::priorityfee::recommendation', { at }, i);
      for (const window of RECO_WINDOWS) await agree(subject, 'chain::priorityfee::recommendation', { window, at, limit: 1000 }, i);
    }
  });

  it('chain::priorityfee::top_txs, with limits, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      for (const limit of [undefined, 3, 1000]) await agree(subject, 'chain::priorityfee::top_txs', { window: '5m', at, limit }, i);
    }
  });

  it('chain::market::block, with filters and limits, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      for (const filter of FILTERS) await agree(subject, 'chain::market::block', { ...filter, at, limit: 1000 }, i);
      await agree(subject, 'chain::market::block', { at }, i);
    }
  });

  it('chain::market::ohlcv: every window, filters, from/to, as of every time', async () => {
    for (const window of MARKET_WINDOWS) {
      for (const [i, at] of AT.entries()) {
        await agree(subject, 'chain::market::ohlcv', { window, at }, i);
        await agree(subject, 'chain::market::ohlcv', { window, at, base: data.mints.GONE, limit: 3 }, i);
      }
      await agree(subject, 'chain::market::ohlcv', { window, quote: USDT, from: utc('2024-03-14T00:00:00Z'), to: utc('2024-03-14T02:00:00Z') });
    }
  });

  for (const method of ['chain::market::volume', 'chain::market::vwap', 'chain::market::twap']) {
    it(`${method}: every window, filters, as of every time`, async () => {
      for (const window of MARKET_WINDOWS) {
        for (const [i, at] of AT.entries()) {
          await agree(subject, method, { window, at, limit: 1000 }, i);
          await agree(subject, method, { window, at, ...FILTERS[1 + (i % 3)] }, i);
        }
      }
    });
  }

  it('chain::market::trades, with filters and limits, as of every time', async () => {
    for (const [i, at] of AT.entries()) {
      for (const filter of FILTERS) await agree(subject, 'chain::market::trades', { ...filter, at, limit: 1000 }, i);
      await agree(subject, 'chain::market::trades', { at, base: data.mints.ORPH }, i);
    }
  });

  it('chain::market::token: every token, one mint', async () => {
    await agree(subject, 'chain::market::token', {});
    await agree(subject, 'chain::market::token', { mint: data.mints.LENS });
    await agree(subject, 'chain::market::token', { at: AT[5] }, 5);
  });

  it('chain::market::ingestion: slots, timestamps, batches and records', async () => {
    for (const [i, at] of AT.entries()) {
      for (const limit of [undefined, 300]) await agree(subject, 'chain::market::ingestion', { at, limit }, i);
    }
  });
});

describe('golden records and the data set', () => {
  const [custom, retained] = SUBJECTS as [Subject, Subject];

  it('one full record per method equals its golden value, in the oracle and in the engine', async () => {
    for (const [method, params] of goldenQueries(data)) {
      const golden = GOLDEN_RECORDS[method]!;
      const fromOracle = custom.oracle.answer(method, params) as Record<string, unknown>[];
      expect(fromOracle[0], method).toEqual(golden);
      const wire = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, k === 'at' ? wireTime(v as bigint) : v]));
      const [entry] = (await ingested.request({ jsonrpc: '2.0', id: 1, method, params: wire })) as { result: Record<string, unknown>[] }[];
      const record = method === 'chain::market::ingestion' ? (({ started_at, took, ...rest }) => rest)(entry!.result[0]!) : entry!.result[0]!;
      expect(differences([record as Record<string, string>], [golden]), method).toEqual([]);
    }
  });

  it('exercises what it claims: USD via USDT, SOL and a custom stablecoin, unknown USD, saturated blocks, refusals', () => {
    const blocks = custom.oracle.answer('chain::market::block', { limit: 1000 }) as Record<string, unknown>[];
    const usdOf = (base: string, quote: string) => blocks.filter((b) => b.base === base && b.quote === quote).map((b) => b.quote_usd_price);
    expect(usdOf(SOL, USDT).every((u) => u === '1')).toBe(true);
    expect(usdOf(data.mints.LENS, SOL).some((u) => u !== null && u !== '1')).toBe(true);
    const orphans = usdOf(data.mints.ORPH, data.mints.LENS);
    expect(orphans.length > 0 && orphans.every((u) => u === null)).toBe(true);
    const xusdQuoted = custom.oracle.answer('chain::market::block', { base: data.mints.GONE, limit: 1000 }) as Record<string, unknown>[];
    expect(xusdQuoted.length > 0 && xusdQuoted.every((b) => b.quote_usd_price === '1')).toBe(true);
    // default stablecoins, everything kept: GONE's USD route comes and goes
    const defaults = new Oracle(data, { minSamples: 100, blockCuLimit: 60_000_000n, saturatedFillPct: 90, stablecoins: [USDC, USDT], outlierThreshold: 0.25 });
    const gone = defaults.answer('chain::market::block', { base: data.mints.GONE, limit: 1000 }) as Record<string, unknown>[];
    expect(gone.some((b) => b.quote_usd_price === null) && gone.some((b) => b.quote_usd_price !== null)).toBe(true);
    const recs = custom.oracle.answer('chain::priorityfee::recommendation', { window: '15m', limit: 1000 }) as Record<string, unknown>[];
    expect(recs.some((r) => r.saturated_block_share_pct !== '0')).toBe(true);
    expect(data.blocks.some((b) => b.block_cu_limit === null) && data.blocks.some((b) => b.block_cu_limit !== null)).toBe(true);
    expect(data.rejectedTrades.length).toBeGreaterThan(0);
    expect(data.tradeOnlySlots.length).toBeGreaterThan(0);
    const refused = AT.filter((at) => at !== undefined && !Array.isArray(retained.oracle.answer('chain::priorityfee::top_txs', { at })));
    expect(refused.length).toBeGreaterThan(0);
    expect(AT.some((at) => at !== undefined && Array.isArray(retained.oracle.answer('chain::priorityfee::fee', { at, window: '1m' })))).toBe(true);
    expect(AT.some((at) => at !== undefined && !Array.isArray(retained.oracle.answer('chain::priorityfee::fee', { at, window: '1h' })))).toBe(true);
    // the market's history is cut too: an early `at` refused, a live list shorter than the full one
    expect(AT.some((at) => at !== undefined && !Array.isArray(retained.oracle.answer('chain::market::trades', { at })))).toBe(true);
    const all = (custom.oracle.answer('chain::market::block', { limit: 1000 }) as unknown[]).length;
    expect((retained.oracle.answer('chain::market::block', { limit: 1000 }) as unknown[]).length).toBeLessThan(all);
  });
});
