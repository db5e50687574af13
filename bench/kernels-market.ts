/**
 * Market kernels over one pair's trades in 1-minute tumbling windows, 10^6 and 10^7 trades:
 * OHLCV candles (with their USD columns), VWAP partial sums (volumes, sides, USD) and TWAP, by
 * - chainlens: the market kernels (`candles`, `groupSums`, `twap`; WebAssembly);
 * - DuckDB-WASM and native DuckDB: GROUP BY the integer minute (arg_min/arg_max for open/close,
 *   lead/lag window functions for the TWAP's held stretches);
 * - plain TypeScript: one pass over the time-ordered trades (bench/plain-market.ts).
 */
import { createMarketKernels, type MarketKernels, type TwapWindows } from '../src/kernels/market.js';
import { MINUTE_NS, TRADE_BYTES, tradeSet, windowOffsets, type TradeSet } from './data.js';
import { measure, speedup, type Figure } from './harness.js';
import { formatCount } from './kernels-percentiles.js';
import { repeats, type BenchOptions } from './options.js';
import { candlesPlain, groupSumsPlain, twapPlain } from './plain-market.js';
import { openSqlBaselines, type SqlBaselines } from './sql.js';

const W = MINUTE_NS;
const PRICE = 'quote / base';

/** The SQL of each computation over table `trades` (time, base, quote, usd, is_buy, seq). */
export const MARKET_SQL = {
  candles: `SELECT "time" // ${W} * ${W} AS start, arg_min(${PRICE}, seq) AS open, max(${PRICE}) AS high, min(${PRICE}) AS low,
    arg_max(${PRICE}, seq) AS close, sum(base) AS base_volume, sum(quote) AS quote_volume,
    arg_min(${PRICE} * usd, seq) AS open_usd, max(${PRICE} * usd) AS high_usd, min(${PRICE} * usd) AS low_usd,
    arg_max(${PRICE} * usd, seq) AS close_usd, sum(quote * usd) AS volume_usd, count(*) AS trades
    FROM trades GROUP BY start ORDER BY start`,
  vwap: `SELECT "time" // ${W} * ${W} AS start, sum(quote) / sum(base) AS vwap, sum(base) AS base_volume, sum(quote) AS quote_volume,
    sum(${PRICE} * base) AS price_volume, sum(base) FILTER (WHERE is_buy = 1) AS buy_volume,
    sum(base) FILTER (WHERE is_buy = 0) AS sell_volume, sum(quote * usd) AS volume_usd,
    sum(${PRICE} * usd * base) AS price_volume_usd, sum(quote * usd) FILTER (WHERE is_buy = 1) AS buy_volume_usd,
    sum(quote * usd) FILTER (WHERE is_buy = 0) AS sell_volume_usd, count(*) AS trades,
    count(*) FILTER (WHERE is_buy = 1) AS buys, count(*) FILTER (WHERE isnan(usd)) AS usd_unknown
    FROM trades GROUP BY start ORDER BY start`,
  twap: `WITH t AS (
      SELECT "time" AS ts, ${PRICE} AS p, ${PRICE} * usd AS p_usd, "time" // ${W} * ${W} AS b, seq,
        lead("time") OVER (ORDER BY seq) AS nxt, lag(${PRICE}) OVER (ORDER BY seq) AS prev_p,
        lag(${PRICE} * usd) OVER (ORDER BY seq) AS prev_p_usd, lag("time" // ${W} * ${W}) OVER (ORDER BY seq) AS prev_b
      FROM trades),
    s AS (
      SELECT b, seq, p, p_usd, least(coalesce(nxt, b + ${W}), b + ${W}) - ts AS held,
        CASE WHEN prev_b IS DISTINCT FROM b AND prev_p IS NOT NULL THEN ts - b ELSE 0 END AS carried,
        coalesce(prev_p, 0) AS prev_p, coalesce(prev_p_usd, 0) AS prev_p_usd
      FROM t)
    SELECT b AS start, sum(held) + sum(carried) AS duration_ns,
      sum(p * held / 1e9) + sum(prev_p * carried / 1e9) AS weighted, sum(p_usd * held / 1e9) + sum(prev_p_usd * carried / 1e9) AS weighted_usd,
      (sum(p * held) + sum(prev_p * carried)) / (sum(held) + sum(carried)) AS twap,
      (sum(p_usd * held) + sum(prev_p_usd * carried)) / (sum(held) + sum(carried)) AS twap_usd,
      arg_max(p, seq) AS last_price, arg_max(p_usd, seq) AS last_price_usd, count(*) AS trades
    FROM s GROUP BY b ORDER BY b`,
} as const;

type Computation = keyof typeof MARKET_SQL;

/** The computation's one-number summary in each subject, for the cross-check: candle count and a sum. */
interface Summary {
  rows: number;
  total: number;
}

const sumOf = (values: Float64Array): number => values.reduce((a, b) => a + b, 0);

/** Runs a computation in chainlens (kernel) and returns its summary. */
function kernelRun(market: MarketKernels, trades: TradeSet, what: Computation): Summary {
  if (what === 'candles') {
    const c = market.candles(trades, W);
    return { rows: c.start.length, total: sumOf(c.close) };
  }
  if (what === 'vwap') {
    const s = market.groupSums(trades, trades.time, W);
    const vwap = s.quoteVolume.map((q, i) => q / s.baseVolume[i]!);
    return { rows: s.start.length, total: sumOf(vwap) };
  }
  const starts = windowOffsets(trades.time, W).starts;
  const windows: TwapWindows = { start: BigInt64Array.from(starts), end: BigInt64Array.from(starts, (s) => s + W) };
  const t = market.twap(trades, windows);
  return { rows: t.twap.length, total: sumOf(t.twap) };
}

/**
 * The kernel alone, as if the columns already lived in WebAssembly memory (decoded there at ingest):
 * inputs written untimed by `write` (before every run: the wrapper's candles and groupSums reuse the
 * start of the trade area for their chunks), the timed part `run` is one kernel call over all the
 * columns where they lie (the group rows were reserved by the wrapper's calls, so nothing is
 * counted first), outputs left in memory. Not a target subject: against chainlens it shows what the
 * wrapper's copies cost.
 */
function residentRun(market: MarketKernels, trades: TradeSet, what: Computation): { write: () => void; run: () => number } {
  kernelRun(market, trades, what); // sizes every area through the wrapper
  const x = market.exports;
  const n = trades.time.length;
  const starts = windowOffsets(trades.time, W).starts;
  const m = starts.length;
  const write = () => {
    const buffer = x.memory.buffer;
    new BigInt64Array(buffer, x.timePtr(), n).set(trades.time);
    new BigInt64Array(buffer, x.keyPtr(), n).set(trades.time);
    new Float64Array(buffer, x.basePtr(), n).set(trades.baseVolume);
    new Float64Array(buffer, x.quotePtr(), n).set(trades.quoteVolume);
    new Float64Array(buffer, x.usdPtr(), n).set(trades.quoteUsdPrice);
    new Uint8Array(buffer, x.isBuyPtr(), n).set(trades.isBuy);
    new BigInt64Array(buffer, x.windowStartPtr(), m).set(starts);
    new BigInt64Array(buffer, x.windowEndPtr(), m).set(starts.map((s) => s + W));
  };
  const ok = (status: number) => {
    if (status !== 0) throw new Error(`market ${what}: kernel status ${status}`);
  };
  const runs: Record<Computation, () => number> = {
    candles: () => {
      ok(x.candles(x.timePtr(), x.basePtr(), x.quotePtr(), x.usdPtr(), n, W, x.columnPtr(0), x.groupCapacity()));
      return x.groupCount();
    },
    vwap: () => {
      ok(x.groupSums(x.keyPtr(), x.basePtr(), x.quotePtr(), x.usdPtr(), x.isBuyPtr(), n, W, x.columnPtr(0), x.groupCapacity()));
      return x.groupCount();
    },
    twap: () => {
      ok(x.twap(x.timePtr(), x.basePtr(), x.quotePtr(), x.usdPtr(), n, x.windowStartPtr(), x.windowEndPtr(), m, NaN, NaN, x.columnPtr(0), x.groupCapacity()));
      return m;
    },
  };
  write();
  return { write, run: runs[what] };
}

function plainRun(trades: TradeSet, what: Computation): Summary {
  if (what === 'candles') {
    const c = candlesPlain(trades, W);
    return { rows: c.start.length, total: sumOf(c.close) };
  }
  if (what === 'vwap') {
    const s = groupSumsPlain(trades, W);
    const vwap = s.quoteVolume.map((q, i) => q / s.baseVolume[i]!);
    return { rows: s.start.length, total: sumOf(vwap) };
  }
  const t = twapPlain(trades, W);
  return { rows: t.twap.length, total: sumOf(t.twap) };
}

const SUMMARY_COLUMN: Record<Computation, string> = { candles: 'close', vwap: 'vwap', twap: 'twap' };

/** Cross-check: same window count in all four, and the sum over windows of close / vwap / twap within 1e-9 relative. */
async function check(sql: SqlBaselines, market: MarketKernels, trades: TradeSet, what: Computation): Promise<string> {
  const mine = kernelRun(market, trades, what);
  const query = `SELECT count(*) AS rows, sum(${SUMMARY_COLUMN[what]}) AS total FROM (${MARKET_SQL[what]})`;
  const others: [string, Summary][] = [['plain TypeScript', plainRun(trades, what)]];
  for (const [name, rows] of [['DuckDB-WASM', await sql.wasmRows(query)], ['native DuckDB', await sql.nativeRows(query)]] as const) {
    others.push([name, { rows: Number(rows[0]!.rows), total: Number(rows[0]!.total) }]);
  }
  for (const [name, s] of others) {
    if (s.rows !== mine.rows || Math.abs(s.total - mine.total) > 1e-9 * Math.abs(mine.total)) {
      throw new Error(`market ${what}: ${name} disagrees with the kernel (${JSON.stringify(s)} vs ${JSON.stringify(mine)})`);
    }
  }
  return `window count equal and the sum over windows of ${SUMMARY_COLUMN[what]} within 1e-9 (relative) in all four subjects`;
}

const TITLES: Record<Computation, string> = { candles: '1m OHLCV candles', vwap: '1m VWAP (volume partial sums)', twap: '1m TWAP' };
const COLUMNS: Record<Computation, string> = {
  candles: 'open/high/low/close, volumes, their USD versions and trade count',
  vwap: 'VWAP, base/quote/price-volume, buy/sell volumes, USD sums, counts',
  twap: 'time-weighted sums and averages (also in USD), covered duration, last price, count',
};

/** The market figures: candles, VWAP and TWAP at 10^6 and 10^7 trades (10^5 in quick mode). */
export async function marketFigures(options: BenchOptions): Promise<Figure[]> {
  const sizes = options.quick ? [100_000] : [1_000_000, 10_000_000];
  const sql = await openSqlBaselines();
  const figures: Figure[] = [];
  try {
    for (const n of sizes) {
      const trades = tradeSet(n);
      const seq = new Uint32Array(n);
      for (let i = 0; i < n; i++) seq[i] = i;
      await sql.load('trades', {
        time: trades.time, base: trades.baseVolume, quote: trades.quoteVolume, usd: trades.quoteUsdPrice, is_buy: trades.isBuy, seq,
      });
      const market = createMarketKernels(n);
      const windows = windowOffsets(trades.time, W).starts.length;
      for (const what of ['candles', 'vwap', 'twap'] as const) {
        const checked = await check(sql, market, trades, what);
        const resident = residentRun(market, trades, what);
        const made = resident.run();
        if (made !== windows) throw new Error(`market ${what}: the resident kernel made ${made} windows, not ${windows}`);
        const subjects = await measure([
          { id: 'chainlens', run: () => kernelRun(market, trades, what) },
          {
            id: 'chainlens-resident', label: 'chainlens kernel alone (columns already in WASM memory; not a target subject)',
            run: resident.run, before: resident.write,
          },
          { id: 'duckdb-wasm', run: () => sql.wasmQuery(MARKET_SQL[what]) },
          { id: 'duckdb-native', run: () => sql.nativeQuery(MARKET_SQL[what]), note: `${sql.nativeThreads} threads` },
          { id: 'plain-ts', run: () => plainRun(trades, what) },
        ], n, repeats(options, n >= 5_000_000));
        figures.push({
          id: `market.${what}-${n}`,
          family: 'market',
          title: `${TITLES[what]}, ${formatCount(n)} trades`,
          size: `${formatCount(n)} trades of one pair (about 20 a second), ${windows.toLocaleString('en-US')} one-minute windows`,
          work: { unit: 'trades', count: n, bytes: n * (TRADE_BYTES + (what === 'vwap' ? 1 : 0)) },
          subjects,
          skipped: [],
          targets: [speedup(subjects, 'duckdb-wasm', 10), speedup(subjects, 'duckdb-native', 5), speedup(subjects, 'plain-ts', 2)],
          checked,
          notes: [`Every subject computes ${COLUMNS[what]} per window.`],
        });
      }
      await sql.drop('trades');
    }
    return figures;
  } finally {
    await sql.close();
  }
}
