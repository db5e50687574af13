/**
 * Why a target is missed and what would close it, from the analysis of the committed run. The
 * texts quote the figure's own numbers, so a re-run keeps them true or visibly stale; a miss without
 * an entry here is reported as "not analysed yet".
 */
import type { Figure, Target } from './harness.js';

/** The explanation of a missed target. */
export interface Explanation {
  why: string;
  close: string;
}

interface Entry {
  /** Figure id prefixes this entry explains. */
  figures: readonly string[];
  /** Target `against` ids (baseline or latency condition) it explains; all when absent. */
  against?: readonly string[];
  explain(figure: Figure, target: Target): Explanation;
}

const median = (f: Figure, id: string): number => f.subjects.find((s) => s.id === id)?.stats.median_ms ?? NaN;
const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + ' ms';
const x = (a: number, b: number): string => `${(a / b).toFixed(1)}x`;

/**
 * What the wrapper's copies cost: the kernel-alone subject (one call over columns already in
 * WebAssembly memory) against chainlens (copies in, by chunks for the grouped kernels, and results
 * out). When the kernel alone is not faster, the copies are not what costs, and no share is claimed.
 */
function copyShare(f: Figure): string {
  const wrapped = median(f, 'chainlens');
  const alone = median(f, 'chainlens-resident');
  if (!(alone < wrapped)) {
    return `the kernel alone, with the columns already in WebAssembly memory, takes ${ms(alone)}, no less than the ${ms(wrapped)} ` +
      'of chainlens with its copies (the copies are not what costs here)';
  }
  return `the kernel alone, with the columns already in WebAssembly memory, takes ${ms(alone)} of the ${ms(wrapped)} (${Math.round((100 * (wrapped - alone)) / wrapped)}% is the wrapper copying the columns in and the results out)`;
}

const ENTRIES: readonly Entry[] = [
  {
    figures: ['percentiles.'],
    against: ['duckdb-wasm', 'duckdb-native'],
    explain: (f, t) => ({
      why: `chainlens spends ${ms(median(f, 'chainlens'))} (${((1e6 * median(f, 'chainlens')) / f.work.count).toFixed(1)} ns a sample) on one core; ` +
        `${t.against === 'duckdb-native' ? `native DuckDB runs the GROUP BY on ${f.subjects.find((s) => s.id === 'duckdb-native')?.note ?? 'all cores'} and` : 'DuckDB-WASM'} ` +
        `takes ${ms(median(f, t.against!))}. At 10^6 samples the ratios are met: chainlens' time grows linearly with the samples ` +
        '(the windows are the same size), DuckDB\'s less than linearly (its fixed per-query cost weighs less at 10^7, and native ' +
        'DuckDB\'s threads have more groups to share). Each window is also copied into WebAssembly memory before the radix select ' +
        '(DESIGN.md 2 measured 7 ms without the copy, 12 ms with it, for 10^6 values), ' +
        'and the machine was shared (see the load average).',
      close: 'Select in place: decode the fee samples into the kernel\'s memory at ingest (Arrow IPC read straight into WASM memory, ' +
        'DESIGN.md 2) so the copy goes; and spread the windows over a second kernel worker (the engine already runs the kernels in ' +
        'one), matching native DuckDB\'s two threads. Either alone is about the missing margin at 10^7.',
    }),
  },
  {
    figures: ['market.candles-'],
    against: ['plain-ts'],
    explain: (f) => ({
      why: `The plain loop takes ${ms(median(f, 'plain-ts'))}; ${copyShare(f)}. The kernel reads 32 bytes a trade (time, base, ` +
        'quote, USD price), the copies in bring them from the JavaScript arrays at memory speed (by chunks that the kernel ' +
        'then reads from cache), and its three running sums (base, quote and USD volume) add one trade at a time in trade ' +
        'order so that results are bit for bit the reference\'s: one f64 addition latency a trade bounds the kernel, whatever ' +
        'the SIMD width (the division and the min/max already take two trades per f64x2 instruction).',
      close: 'Keep trade columns resident in the market kernels\' memory (decoded there at ingest) so a call passes offsets, not ' +
        'copies: chainlens then takes the kernel-alone time. Summing each window in two interleaved halves, added at the ' +
        'window end, would halve the latency bound but change the summation order (results within a tolerance of the ' +
        'reference, not bit for bit).',
    }),
  },
  {
    figures: ['market.vwap-'],
    against: ['plain-ts'],
    explain: (f) => ({
      why: `${copyShare(f)[0]!.toUpperCase()}${copyShare(f).slice(1)}; the plain loop takes ${ms(median(f, 'plain-ts'))}: the groupSums loop compiled to ` +
        'WebAssembly is no faster than V8\'s JIT of the same loop. Its nine running sums are updated for every trade (branch-free ' +
        'selects, so the USD and side sums cost even where the plain loop skips them), one division per trade, and every sum in ' +
        'trade order (so results agree bit for bit with the reference).',
      close: 'A rework of assembly/market/sums.ts: f64x2 SIMD over pairs of trades with the lanes combined at each window end ' +
        '(which changes the summation order: the tests would compare with a tolerance instead of bit for bit), fewer live ' +
        'accumulators per pass (USD sums in a second pass only when asked for), and resident columns as for the candles.',
    }),
  },
  {
    figures: ['market.vwap-'],
    against: ['duckdb-wasm', 'duckdb-native'],
    explain: (f, t) => ({
      why: `Plain SUM and FILTER aggregates are DuckDB's best case (vectorized, ${t.against === 'duckdb-native' ? 'on two threads, ' : ''}no sort or ` +
        `window function as in its candles and TWAP): ${ms(median(f, t.against!))}. chainlens' groupSums takes ${ms(median(f, 'chainlens'))}, of which the ` +
        `kernel alone is ${ms(median(f, 'chainlens-resident'))}: the kernel's own loop is the slow part (see the plain-TS miss of this figure).`,
      close: 'The same kernel rework as for the plain-TS miss (SIMD lanes, fewer live accumulators, resident columns); against ' +
        'native DuckDB also a second core (windows split across two kernel workers).',
    }),
  },
  {
    figures: ['market.twap-'],
    against: ['plain-ts'],
    explain: (f) => ({
      why: `The plain loop takes ${ms(median(f, 'plain-ts'))}; ${copyShare(f)}. The kernel itself is ${x(median(f, 'plain-ts'), median(f, 'chainlens-resident'))} ` +
        'faster than the plain loop; copying 32 bytes a trade in each call is what brings it under 2x at this size.',
      close: 'Resident trade columns (decoded into the market kernels\' memory at ingest), so a call passes offsets: the kernel-alone ' +
        'time above then is the figure.',
    }),
  },
  {
    figures: ['latency.market::token', 'latency.priorityfee::top_txs', 'latency.market::trades', 'latency.market::ingestion'],
    explain: () => ({
      why: 'This method answers with DuckDB-WASM queries, not from memory: every DuckDB-WASM statement costs about a millisecond ' +
        'or more (DESIGN.md 2), and this answer takes one or several (top_txs scans the 5m window\'s transactions); while ' +
        'ingesting, the query also waits behind the block being ingested (below).',
      close: 'Serve the newest answer from memory as the priority-fee and market window methods already do: the token list ' +
        '(a few rows), the newest trades and ingestion timings (ring buffers filled at commit), and a top-k heap per 5m window; ' +
        'DuckDB stays for as-of and ranges. Then the ingestion fix below.',
    }),
  },
  {
    figures: ['latency.'],
    against: ['local', 'port'],
    explain: (f) => {
      return {
        why: 'These methods answer from memory (medians of tens of microseconds in the latency table). The p99 tail is most likely ' +
          `the thread waiting for the CPU, not the answer: the machine's load average was ${f.load_average?.join(', ') ?? 'high'} on 2 ` +
          'cores when the latency figures started (other processes\' test runs, plus this benchmark), so about one call in a ' +
          'hundred waited for a time slice.',
        close: 'Nothing in the method: the target holds when the thread has its core (measure on a machine that is not shared, ' +
          'or with the benchmark pinned to a core of its own).',
      };
    },
  },
  {
    figures: ['latency.'],
    against: ['local-ingesting', 'port-ingesting'],
    explain: (f) => ({
      why: `Ingestion ran at ${Number(f.values?.ingest_blocks_per_s_while_querying ?? NaN).toFixed(1)} blocks/s beside the queries (the chain ` +
        'makes 2.5 a second), one block per ingest call; each block holds the thread in stretches that do not return to the event loop' +
        ' (DuckDB-WASM\'s blocking inserts, the methods\' per-block state), and a request that arrives meanwhile (a ' +
        'message, or a local call issued from a new task) waits for the stretch to end: tens to hundreds of milliseconds at p99. Idle, the same calls answer in ' +
        'microseconds (the latency table).',
      close: 'Take ingestion off the serving thread: ingest in the engine worker (or a second worker) and publish each committed ' +
        'block\'s live state to the serving thread, or at least yield to the event loop between the pipeline\'s stages ' +
        '(setImmediate after each block\'s store insert and each method engine), so a waiting message is served within one stage.',
    }),
  },
];

/** The explanation of `target` missed in `figure` (the first entry that applies), if one was written. */
export function explainMiss(figure: Figure, target: Target): Explanation | undefined {
  const entry = ENTRIES.find((e) =>
    e.figures.some((id) => figure.id.startsWith(id)) && (!e.against || (target.against !== undefined && e.against.includes(target.against))));
  return entry?.explain(figure, target);
}
