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
  /** Explains the figures in which chainlens did not finish (values.chainlens_failed), and only those. */
  failed?: boolean;
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

const value = (f: Figure, key: string): number => Number(f.values?.[key] ?? NaN);
const pct = (f: Figure, stage: string): string => `${value(f, `chainlens_stage_${stage}_pct`).toFixed(0)}%`;

/** Where chainlens' end-to-end time goes, from the profiled run, in words. */
function e2eStages(f: Figure): string {
  const serving = (stage: string) => `${value(f, `chainlens_serving_${stage}_s`).toFixed(1)} s`;
  return `Of chainlens' ${value(f, 'chainlens_cpu_s').toFixed(1)} s of CPU (${value(f, 'chainlens_wall_s').toFixed(1)} s wall, of which ` +
    `${value(f, 'chainlens_load_s').toFixed(1)} s load), the profile puts ${pct(f, 'decode')} in decoding, ${pct(f, 'validate')} in row-by-row validation, ` +
    `${pct(f, 'compute')} in computing the methods' per-block state, ${pct(f, 'store')} in the store (DuckDB-WASM, in its own thread) and ${pct(f, 'other')} elsewhere ` +
    `(the pipeline, the calls, Node, GC). The serving thread, which bounds the load, was busy ${value(f, 'chainlens_serving_busy_s').toFixed(1)} s ` +
    `in the profiled run (slower than the timed one): ${serving('decode')} decoding (mapping the Arrow batches the decoder worker decoded ` +
    `from Parquet, the column checks), ${serving('compute')} on the methods' per-block state, ` +
    `${serving('store')} making what the store keeps (the rows for DuckDB-WASM, the resident transactions), ${serving('other')} elsewhere ` +
    '(the pipeline\'s own passes over each chunk: its checks, accounts, text and slots; garbage collection; messages to the workers). Beside it the decoder worker decodes Parquet (parquet-wasm), the kernel worker makes the ' +
    'transactions\' per-block forms and the fee windows\' statistics, and the database writes in its own thread.';
}

const E2E_CLOSE = 'The rest of the columnar engine (docs/architecture.md). On two cores work moved off the serving thread pays only ' +
  'where that thread does not wait for it: the transactions\' per-block forms made in the kernel worker while the chunks before ' +
  'commit, with the decoder asked for a batch ahead and two chunks read ahead, took the hour to 0.86x wall (step 32); moves the ' +
  'thread waited for measured no faster (the block fee statistics with the forms: 1.13x, their chunk\'s forms started too late ' +
  'to be ready). Work not done pays most: the text columns checked and held by the decoder, the serving thread taking each ' +
  'block\'s best fee payers\' text only (step 34), and the file read by positioned reads (step 35) took the hour\'s load to ' +
  '0.78x wall; closed fee windows made when a query first lists their length (step 37, 0.95x) and the live top list kept ' +
  'once asked (step 38, 0.97x); the transactions\' forms at a third of their cost (step 58, 0.97x), the signature column ' +
  'left unread when the file declares it required (step 59, 0.93x), the slot-order pass pipelined (step 61, 0.93x), the ' +
  'floats\' wire texts made in WebAssembly (step 65, the hour\'s child 0.92x). What is left, from a profile of the hour\'s ' +
  'load and answers at the code of step 65 on the Intel Xeon machine (2026-11-29: 20.9 s wall profiled, the load 18.4 s, ' +
  '36 s of CPU): both cores are full (the three threads used 34 s of the ~37 the two cores had), so every thread\'s CPU ' +
  'counts. The serving thread busy 16.5 s, idle 4.4 s waiting for decoded batches: garbage collection 2.2, the market\'s ' +
  'per-block work ~3.0 (pushing blocks to pairs 0.57, splitting the chunk\'s trades 0.49 of which sorting its pairs by ' +
  'name is the largest line, USD prices 0.5, the trade log 0.54, block aggregates 0.24), the block fee kernel 1.0, the ' +
  'pipeline\'s passes over each chunk\'s rows ~1.5 (slot runs, the repeat check, the slot merge, the accounts\' file rows), ' +
  'the account keys\' lookups 0.58, no other function over 0.5 s. The decoder 13.9 s: parquet-wasm 8.1 (the key lists, ' +
  'signers, programs and numbers) and 0.74 handing its batches out as Arrow IPC, the public-key checks 1.6, copying the ' +
  'keys into their kernel 0.77, picking the held text 0.67, the file\'s reads 0.51. The kernel worker 3.4 s. Not levers ' +
  '(measured 2026-11-29): a young generation of 64 MiB (1.03x wall, no gain: the collector\'s time is not the scavenges\' ' +
  'count), and the row passes rewritten as tighter loops (the repeat check\'s ordered pass 17 -> 12 ns a row in a ' +
  'microbenchmark, ~0.1 s of the load; the accounts\' file rows a batch at a time: 147 -> 134 ms in a profile of the ' +
  '10-minute load): a pass over a chunk\'s rows costs 10-25 ns a row here, where one thread reads memory at 2.9 GiB/s. ' +
  'The largest single cost is the write-locked key lists (~1 GB compressed in the hour): an experiment that left them ' +
  'unread and unchecked (not a valid load: a bad key must still be rejected) took the hour\'s child to 0.86x wall and ' +
  '0.82x CPU (3 interleaved pairs; 17.1-17.4 s against 19.2-20.3 in 2 more), parquet-wasm\'s time 8.1 -> 4.3 s. ' +
  'What would close it: the key lists decoded and checked in one WebAssembly memory (a Parquet page reader of our own ' +
  'for the text columns: today parquet-wasm decompresses and decodes them into Arrow lists, the keys are copied from its ' +
  'memory into the key kernel\'s and checked there; the check itself is ~0.6 s of it), the slot-order pass replaced by the row groups\' statistics where ' +
  'they prove the order across groups, and the market\'s chunk work moved off the serving thread as the forms were; the ' +
  'peers show the budget: they read only the ' +
  'columns the answers need, vectorized, on every core.';

const ENTRIES: readonly Entry[] = [
  {
    figures: ['e2e.'],
    failed: true,
    explain: (f) => ({
      why: `chainlens ${String(f.values!.chainlens_failed)}.` + (/out of memory/i.test(String(f.values!.chainlens_failed))
        ? ' DuckDB-WASM\'s wasm32 heap is capped (about 3.1 GiB here, in 4 GiB of address space): what the store holds of this ' +
          `dump (${f.size.split(' (')[0]}) did not fit beside the methods' state.`
        : '') + (typeof f.values?.polars_wall_s === 'number'
        ? ` Native DuckDB answered in ${value(f, 'duckdb-native_wall_s').toFixed(1)} s at ${value(f, 'duckdb-native_peak_rss_mib').toFixed(0)} MiB ` +
          `and Polars in ${value(f, 'polars_wall_s').toFixed(1)} s at ${value(f, 'polars_peak_rss_mib').toFixed(0)} MiB.`
        : ''),
      close: `${E2E_CLOSE} Memory is bounded by the resident columns (and retention), not by DuckDB-WASM's heap.`,
    }),
  },
  {
    figures: ['e2e.replay-'],
    explain: (f) => ({
      why: `The replay commits ${f.subjects[0]!.per_second.toFixed(0)} blocks/s, a chunk of the blocks due at a time through the ` +
        'load\'s ingest path, then pushes to the 12 subscriptions (about 580 records a mainnet-profile block: the top list\'s 100, ' +
        'whose window bounds move every block; 105 trades; 75 candles; 70 each of market blocks, volume, VWAP and TWAP). A ' +
        'profile of the one-hour replay after step 55 (146.6 s profiled, on the Intel Xeon machine of 2026-11-29, which ran ' +
        'the code of the day before in 121-136 s where that day\'s AMD EPYC took 83-101 s): encoding the pushed records ~27 s ' +
        '(a record of 18 floats encodes in 5.5 us, 1.6 us when they are integers: V8\'s shortest text of a double, ~220 ns, ' +
        'is most of it); the value buckets 23.6 s (34.2 before step 55, which reads the streamed hour fee window\'s ~130 ' +
        'order statistics a block from sorted buckets; step 56 then halved the recommendation windows\' departures); garbage ' +
        'collection 18.2 s (25 GB allocated over the replay, 2.9 MB a block, in a sampling heap profile: the wire records and ' +
        'their texts 3.8 GB, the market\'s trailing points 1.6, the trades\' rows and records 2.1); the market\'s records and ' +
        'per-pair state ~12 s; the top list\'s records ~5 s. The same replay with no subscription takes 46-53 s: its seven ' +
        'recommendation windows (all live from retention\'s first prune, so that their points stay whole) ~18 s of it. So ' +
        'the streams cost ~17 us a data point, and the replay without them is itself 2.7x the target. Since then the floats\' ' +
        'wire texts are made in WebAssembly a list of records at a time (step 65: ~100 ns a double against ~210, ~100 a float32 ' +
        'against ~1,300), a streamed top list has its signatures decoded at load (step 63) and prices divide as doubles where ' +
        'exact (step 64): the 10-minute replay 0.80x wall (median of 5 interleaved pairs). A profile of it afterwards (18.3 s): ' +
        'building the wire records 2.9 s and formatting their floats 1.0 (turning bytes into JS strings ~30 ns a value of it), ' +
        'garbage collection 1.8, the value buckets 1.7, the market\'s per-pair records and trailing windows ~2.5.',
      close: 'Less work a data point rather than one hot spot: the streamed records made and encoded in one pass from the ' +
        'kernels\' columns (no intermediate record object: most of the garbage), the top list\'s entries keeping their texts ' +
        'across pushes, the recommendation windows\' arrivals sorted as their departures are, and the load\'s own speed (it ' +
        'bounds the replay). ' + E2E_CLOSE,
    }),
  },
  {
    figures: ['longrun.'],
    explain: (f) => {
      const hours = Object.entries(f.values ?? {}).filter(([k]) => k.startsWith('peak_rss_mib_hour_')).map(([, v]) => Number(v).toLocaleString('en-US'));
      return {
        why: `Hourly peaks of resident memory: ${hours.join(', ')} MiB. The first hour and a quarter fills what is kept (15 minutes of ` +
          'transactions and trades, the market\'s blocks for the widest streamed trailing window, 1h, plus the cut, the hour-long fee ' +
          'window\'s incremental state, about 150 bytes a sample, the seven recommendation windows), and DuckDB-WASM starts about ' +
          'an hour in, when the writes it holds reach their threshold. A breakdown of the replay (session 29, every WebAssembly ' +
          'memory of the process counted apart from /proc/self/smaps): the serving thread\'s heaps and memories and the kernel ' +
          'worker\'s are flat after the first hour (the account keys\' dictionary swings between 74 and 170 MiB with its ' +
          'compactions). DuckDB-WASM\'s heap had grown with the method records (block fees, the seven windows\' recommendation ' +
          'points, closed fee windows, ingestion timings), about 25 MiB an hour and in steps of 35-105 MiB; since step 52 ' +
          'retention deletes them at its cut and a checkpoint frees their row groups (docs/semantics.md, Retention).',
        close: 'The account keys\' dictionary compacted before it doubles (a smaller swing), and the writes DuckDB-WASM would take ' +
          'held and cut in memory instead, so that a replay under retention never starts it (~150 MiB).',
      };
    },
  },
  {
    figures: ['browser.'],
    failed: true,
    explain: (f) => ({
      why: `In the page: ${String(f.values!.chainlens_failed)}. One renderer process holds the page and every worker of the app (the ` +
        'engine worker, DuckDB-WASM\'s, the kernels\'), so a V8 heap out of memory in any of them ends the page, and DuckDB-WASM\'s ' +
        'wasm32 heap cannot grow past 4 GiB. ' +
        `The browser's processes peaked at ${value(f, 'browser_peak_tree_pss_mib').toFixed(0)} MiB (PSS; the renderer ` +
        `${value(f, 'browser_peak_renderer_rss_mib').toFixed(0)} MiB RSS)` +
        (typeof f.values?.node_load_s === 'number'
          ? `; the Node engine loaded the same files in ${value(f, 'node_load_s').toFixed(1)} s at ${value(f, 'node_peak_rss_mib').toFixed(0)} MiB peak RSS.`
          : '.'),
      close: 'What the error names: a bounded page (the app\'s engine given a `retain` span, which bounds the engine as the long-run ' +
        'family shows) or the store\'s rows kept outside DuckDB-WASM\'s heap; and the load of a dump too large for the page ' +
        'stopped with the app\'s own message rather than a crash.',
    }),
  },
  {
    figures: ['browser.'],
    explain: (f, t) => t.kind === 'max-latency'
      ? {
        why: `The first chart came ${value(f, 'first_chart_s').toFixed(2)} s after the files were given. The status line showed the first ` +
          `committed block at ${value(f, 'first_progress_s').toFixed(2)} s (before it: a new engine, its DuckDB-WASM and kernel workers ` +
          'started, the tokens, then the first batches of each table\'s file read and decoded, the load aligning the files by slot); the market view then ' +
          `needs two answers, every pair's 24h candle to pick a pair and that pair's candles, at its 250 ms follow pace while the engine ` +
          `worker is busy loading, and a frame (${value(f, 'first_chart_blocks_committed')} blocks committed when it was drawn).`,
        close: 'The engine (and its workers) started when the page opens rather than when the files are given, the first chunk made ' +
          'small (the newest or the first minute of blocks), and the view\'s two rounds made one (the pair picked in the engine worker ' +
          'from the first trades).',
      }
      : {
        why: `The page committed ${f.values?.page_blocks ?? 'n/a'} of ${f.work.count} blocks and rejected ${f.values?.page_rows_rejected ?? 'n/a'} rows ` +
          `(status: ${String(f.values?.status_line ?? f.values?.last_status_line ?? 'n/a')}).`,
        close: 'The rows the load report lists (the app\'s Load report tab) say which rule refused them.',
      },
  },
  {
    figures: ['e2e.first-answer-'],
    explain: (f) => ({
      why: `chainlens answers (d) after ${ms(median(f, 'chainlens'))} (${value(f, 'chainlens_cpu_s').toFixed(1)} s of CPU on both cores), ` +
        `native DuckDB after ${ms(median(f, 'duckdb-native'))}, Polars after ${ms(median(f, 'polars'))}. chainlens loads the whole dump ` +
        'before its first answer (decode, checks, every method\'s per-block state: the load\'s speed, see the dump figures), beside ' +
        'starting the kernel worker, which also decodes Parquet; DuckDB-WASM is not started (the load holds its 0.6 MB of writes, ' +
        'and (d) is answered from memory). Traced (2026-11-29, the decoder\'s calls timed from the serving thread): import ' +
        'and plan to 177 ms; the decoder worker boots to 236 ms (its bundle, parquet-wasm compiled); the tokens file, the three ' +
        'slot-order passes and the blocks and trades files, chains of round trips, to 447 ms; then the transactions file\'s ' +
        'seven batches arrive at 516, 598, 720, 901, 1,021, 1,128 and 1,153 ms, about 100 ms each while parquet-wasm runs ' +
        'its baseline code (about 42 ms in the hour\'s load), the serving thread 100% busy on the blocks from 500 ms on (290 at ' +
        '3-4 ms each, cold; ~1.3 ms in the hour) and the kernel worker about a quarter: from half a second on both cores are ' +
        'full. The 1m recommendation, made when asked, takes 45-65 ms after the load. Re-ordering the start does not help ' +
        '(the transactions file first: 0.994x in 10 pairs; every stream\'s first batch asked at once: 0.99x). The peers read ' +
        'the columns of (d) only.',
      close: 'Less CPU in the first second rather than less waiting: the load\'s own speed-ups (the dump figures\' notes) on ' +
        'code that is still cold. Answering before the load ends would need the newest blocks committed first, which blocks ' +
        'committed in slot order (every answer as of a prefix of them, docs/semantics.md) rule out.',
    }),
  },
  {
    figures: ['e2e.'],
    explain: (f, t) => ({
      why: t.kind === 'max-mib'
        ? `chainlens peaks at ${value(f, 'chainlens_peak_rss_mib').toFixed(0)} MiB loading the hour with the default retention (everything ` +
          'kept for as-of queries), at the load\'s end or while the answers are made (the answers\' own objects, ~100-150 MiB, ' +
          'which the peers hold too). Interleaved runs of the same day are 980-1,010 MiB since step 42 (signatures kept as ' +
          'their digits packed 6 bits each: 1,035-1,052 before), so a run above 1,024 is the machine\'s spread, not the design. ' +
          'Sampled at the load\'s end: the decoder worker ~150 MiB (parquet-wasm\'s memory 120-130 MiB: the text of the three ' +
          'or four batches held until their chunks take their best fee payers, ~16 MiB each, the batch being decoded, and the ' +
          'allocator\'s fragments; it ends with the load); the kernel worker ~40 MiB; the serving thread ~560 MiB of buffers (the ' +
          'fee columns of the 4.1 million non-vote transactions, 128 MiB; the trades ~110 MiB, 60 of it their signatures; the ' +
          'best fee payers\' signatures, ~52 MiB before step 59 left them in the file; the pairs\' series 121 MiB of columns for 88 of blocks) and a JS heap of ~100 ' +
          'MiB. DuckDB-WASM is not started: its writes, about 10 MB, are held. With `retain` the same engine is bounded by the ' +
          'retained span (the long-run family).'
        : t.kind === 'max-ratio'
        ? `chainlens peaks at ${value(f, 'chainlens_peak_rss_mib').toFixed(0)} MiB, native DuckDB at ${value(f, 'duckdb-native_peak_rss_mib').toFixed(0)} MiB, ` +
          `Polars at ${value(f, 'polars_peak_rss_mib').toFixed(0)} MiB. chainlens keeps about 40 bytes per raw transaction (its fee ` +
          'columns, plus the text of each block\'s 100 best fee payers), each pair\'s block series and candles, the trades and records ' +
          '(held for DuckDB-WASM, which a load of an hour does not start), and garbage between ' +
          'collections (the decoder worker, parquet-wasm\'s heap, ends with the load); the peers hold the needed columns once, compressed or vectorized, and free them. ' +
          'The margin is small and the peers vary (the 10-minute dump on 2026-11-28: chainlens 536 MiB, Polars 583, native DuckDB ' +
          '859). Each peak is the child\'s own high-water mark (VmHWM) since then: getrusage\'s maxRSS, used before, counts the ' +
          'resident set the runner had when it forked the child, and had floored every child of that day\'s full run at 954 MiB.'
        : `Native DuckDB answers (a)-(e) in ${value(f, 'duckdb-native_wall_s').toFixed(1)} s wall (${value(f, 'duckdb-native_cpu_s').toFixed(1)} s CPU), ` +
          `Polars in ${value(f, 'polars_wall_s').toFixed(1)} s (${value(f, 'polars_cpu_s').toFixed(1)} s CPU); chainlens' load runs at ` +
          `${value(f, 'chainlens_load_blocks_per_s').toFixed(0)} blocks/s. ${e2eStages(f)}`,
      close: t.kind === 'max-mib'
        ? 'The trades\' signatures left in the Parquet file and read back when answered, as the best fee payers\' are since step 59 ' +
          '(~60 MiB; an answer that shows them would wait for a read: about 7 ms a row group of the file touched, measured); ' +
          'the decoder\'s held text cut to the rows that can be a block\'s best fee payers, with the serving thread allocating ' +
          'their buffers (copies made in the decoder stayed in its thread\'s malloc arena after it ended: Tried and not kept in ' +
          'docs/architecture.md); the pairs\' series grown by less than doubling (tried at 1.5x: no lower within the noise).'
        : E2E_CLOSE,
    }),
  },
  {
    figures: ['fees.block-stats'],
    explain: (f) => ({
      why: `chainlens takes ${ms(median(f, 'chainlens'))} for the ${f.work.count.toLocaleString('en-US')} blocks (${x(median(f, 'plain-ts'), median(f, 'chainlens'))} ` +
        `faster than the plain loop's ${ms(median(f, 'plain-ts'))}, ${x(median(f, 'duckdb-native'), median(f, 'chainlens'))} faster than native DuckDB). ` +
        'The rate is the machine\'s: the run of 2026-11-28 on the AMD EPYC machine measured the same kernel at 45.1 ms (22.2k blocks/s), ' +
        'the plain loop at 133 ms and native DuckDB at 337; on this Intel Xeon every subject of the figure takes 1.8-2.4x as long. ' +
        'A CPU profile of 35 calls here (2026-11-29): ~77% of the time in the WebAssembly kernel (each block\'s four families ' +
        'selected at 30 ranks from their value buckets, the sums, the position at fee), ~7% copying the columns into its memory, ' +
        '~11% building the 1,000 JavaScript records from the kernel\'s output (readStats, readBlock), inside the timing.',
      close: 'The records read out as columns (the engine\'s block list and the wire encoder can take the kernel\'s output ' +
        'slots directly), the ~11% that alone would put this machine over the line; then the fee columns resident in the ' +
        'kernel\'s memory from ingest (no copy in), as for the percentiles.',
    }),
  },
  {
    figures: ['percentiles.'],
    against: ['duckdb-wasm', 'duckdb-native'],
    explain: (f, t) => ({
      why: `chainlens spends ${ms(median(f, 'chainlens'))} (${((1e6 * median(f, 'chainlens')) / f.work.count).toFixed(1)} ns a sample) on one core; ` +
        `${t.against === 'duckdb-native' ? `native DuckDB runs the GROUP BY on ${f.subjects.find((s) => s.id === 'duckdb-native')?.note ?? 'all cores'} and` : 'DuckDB-WASM'} ` +
        `takes ${ms(median(f, t.against!))}: a ratio against native DuckDB moves with the cores it gets (runs of this benchmark on ` +
        'this machine while other processes loaded it 3-6 measured 47-50x; on the quieter machine of this run native DuckDB had ' +
        'both cores). chainlens\' time grows linearly with the samples (the windows are the same size). Each window is also ' +
        'copied into WebAssembly memory before the radix select (DESIGN.md 2 measured 7 ms without the copy, 12 ms with it, for ' +
        '10^6 values).',
      close: 'Select in place: decode the fee samples into the kernel\'s memory at ingest (Arrow IPC read straight into WASM memory, ' +
        'DESIGN.md 2) so the copy goes; and spread the windows over a second kernel worker (the engine already runs the kernels in ' +
        'one), matching native DuckDB\'s two threads. The copy is about 40% of the time by DESIGN.md 2\'s measurement, and a ' +
        'second worker would halve the wall time on two cores.',
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
      why: `${copyShare(f)[0]!.toUpperCase()}${copyShare(f).slice(1)}; the plain loop takes ${ms(median(f, 'plain-ts'))}. groupSums ` +
        'finds each window\'s run first and adds two trades per step with its nine sums paired in f64x2 lanes, but every lane ' +
        'still adds one trade at a time in trade order (results bit for bit the reference\'s), so one f64 addition latency a ' +
        'trade bounds it; the copy of 40 bytes a trade in at memory speed takes the rest. The margin is thin, and a loaded ' +
        'machine (see the load average) lands it on either side.',
      close: 'Resident trade columns (decoded into the market kernels\' memory at ingest), so a call passes offsets: chainlens then ' +
        'takes the kernel-alone time. Interleaved partial sums per window would halve the latency bound at the cost of bit-for-bit ' +
        'equality with the reference (a tolerance instead).',
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
      close: 'First the chunked copies the candles and VWAP wrappers now use (65,536 trades at a time into the start of the trade ' +
        'area, read back from cache, the state carried across chunks), which took those two figures past 2x; then resident trade ' +
        'columns (decoded into the market kernels\' memory at ingest), so a call passes offsets: the kernel-alone time above.',
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
        'makes 2.5 a second), one block per ingest call given as row objects, as fast as the serving thread allows, so nearly every ' +
        'call arrives while a block is being ingested. That work runs in slices of about a quarter millisecond (the rows validated, ' +
        'the chunk\'s stages, the accounts interned, the columns built, and each live recommendation window\'s ' +
        'slide, 256 samples between pauses, and the gathering of the open fee window\'s samples for the kernel worker); a local call waits ' +
        'for one slice, a MessagePort call (a macrotask each way) for up to two. What is left over 1 ms, from a probe of the event ' +
        'loop\'s turns while ingesting: garbage collection (scavenges of the row objects, the per-block records and stream updates), ' +
        'a batch of keys interned while the dictionary\'s table grows, the Arrow columns built from row objects. The fee answer ' +
        'no longer waits for its own work: a window in progress asked live is kept up block by block while blocks come a few ' +
        'at a time (the streams\' exact incremental statistics), where its statistics were computed in full in the kernel ' +
        'worker on the first call after each block (3.4 ms p99). The p99s while ingesting sit near the 1 ms line: seven runs ' +
        'of this family on 2026-11-28, at the same code or one step apart, put each method between 0.6 and 2.2 ms, and 3 to 12 ' +
        'of the 24 targets missed (the machine shared); the two runs of 2026-11-29 at the code of steps 63-65 missed 10 and 13, ' +
        'the second (the full run) every local target at 1.3-2.2 ms and one MessagePort target. Since step 21 ' +
        '(docs/architecture.md) the thread computes the blocks\' statistics itself instead of idling while the kernel worker ' +
        'did: it ingests faster and never idles, and the queries, sent back to back, meet a slice in progress more often. That ' +
        'measure is the optimistic one (a stretch delays one call, idle moments answer many); a probe sending each call at a ' +
        'random moment measured the same p99 before and after step 21, 6.4-7.5 ms, set by the scavenges (7-20 ms) and the ' +
        'unsliced parts of a commit.',
      close: 'Less garbage a block, which shortens the scavenges: the per-block records and stream updates as typed columns, fewer ' +
        'objects in the top lists; the publication in slices too. At the chain\'s own pace the same calls answer in microseconds ' +
        '(the idle columns).',
    }),
  },
  {
    figures: ['server.http-summary'],
    against: ['server-rps-ratio', 'server-p99-10c'],
    explain: (f) => {
      const v = (key: string) => value(f, key);
      const text = (key: string) => String(f.values?.[key] ?? '?');
      return {
        why: `While the replay ingests at speed Infinity (${v('replay_blocks_per_s_while_measured').toFixed(0)} blocks/s), the worst method ` +
          `(${text('worst_rps_ratio_method')}) answers ${v('worst_rps_ratio').toFixed(3)}x the bare server's requests/s (median over the methods ` +
          `${v('median_rps_ratio').toFixed(3)}x, ${v('median_rps_ingesting').toLocaleString('en-US')} requests/s against the bare server's ` +
          `${v('median_rps_bare').toLocaleString('en-US')}), and the worst p99 is ${ms(v('worst_p99_ms'))} (${text('worst_p99_method')}; median ` +
          `${ms(v('median_p99_ms'))}). The requests wait for the thread: at speed Infinity the replay commits the blocks that are due ` +
          `together, up to 16 blocks or 65,536 rows at once (64 before 9d7af87), and lets the event loop turn between commits and within their stages, so the server process's event loop was ` +
          `held up to ${ms(v('event_loop_delay_max_ms_ingesting'))} at a time during these runs. A CPU profile of the server process under ` +
          'this load (node --cpu-prof, 10 s of the recommendation at 10 connections while ingesting) has the thread 98% busy: 65% in the ' +
          'ingest pipeline, of which the seven recommendation windows\' ordered multisets (add, delete, insert, payloadSumAtLeast) ' +
          'take 46% of the thread, garbage collection 10%, Arrow decoding 8%; answering HTTP took 7%. Idle (the replay paused) the ' +
          `methods answer between ${v('worst_rps_ratio_idle').toFixed(3)}x and ${v('best_rps_ratio_idle').toFixed(2)}x the bare server's requests/s ` +
          `(median ${v('median_rps_idle_over_bare').toFixed(2)}x): the cheapest spend most of their time where the bare server does (in ` +
          'the profile of chain::market::token, writing the response out, writev, is the largest cost); the fee answers of 3.4 KB ' +
          '(priorityfee::block, fee) spent 45% of the thread encoding their record to the wire on every call (encodeFloat32\'s ' +
          'shortest decimal of each f32 field: 37%) until 61ee516 memoized those texts (in-process 55 -> 25 us a call); and the five market methods without a pair filter (block, ohlcv, ' +
          'volume, vwap, twap) cost about 1 ms a call: each call still visits every traded pair (2,000 here), checking what ' +
          'retention holds of it and merging the pairs\' newest keys in a heap to return one entry (MarketEngine.blocks/#points and ' +
          'mergeOrdered). Since c21657e only the points and candles answered are made (a default limit-100 volume call made 200,000 ' +
          'points before it, 36 ms a call), so a larger limit costs little more. ' +
          `At the chain's own pace (a replay at speed 1, 2.5 blocks/s) the worst ratio is ${v('worst_rps_ratio_live').toFixed(3)}x (median ` +
          `${v('median_rps_ratio_live').toFixed(2)}x) and the worst p99 ${ms(v('worst_p99_ms_live'))} (median ${ms(v('median_p99_ms_live'))}).`,
        close: 'Ingest off the serving thread (an engine worker committing the blocks and publishing each block\'s live state to the ' +
          'thread that answers), or at least the publication cut too: the market\'s pairs take each block\'s statistics in the ' +
          'commit\'s one synchronous stretch (its candle books and live trailing windows are updated in place, where the other ' +
          'engines build theirs aside in prepare); and cheaper recommendation windows (their order statistics kept as ' +
          'typed columns rather than ordered-multiset nodes), which also speeds the replay. Each record encoded to its wire text once, when it is made (the newest block\'s ' +
          'fees and windows are asked again and again), not per call (the float32 memo is a first step).',
      };
    },
  },
  {
    figures: ['server.websocket-'],
    against: ['ws-1000'],
    explain: (f) => ({
      why: `Of ${value(f, 'pushes_expected').toLocaleString('en-US')} pushes, ${value(f, 'pushes_delivered').toLocaleString('en-US')} arrived ` +
        `(the fewest on one socket ${value(f, 'pushes_min_per_socket')} of ${value(f, 'blocks_replayed')}); the server ended ` +
        `${value(f, 'subscriptions_ended_by_server')} subscriptions (a subscriber 1,000 pushes or 16 MiB behind is ended), ` +
        `${value(f, 'sockets_closed')} sockets closed and ${value(f, 'socket_errors')} failed.`,
      close: 'Each push encoded once per block and the same text written to every socket (not per subscriber), and the replay ' +
        'pacing its commits to the slowest socket\'s backlog rather than running ahead of it.',
    }),
  },
];

/** The explanation of `target` missed in `figure` (the first entry that applies), if one was written. */
export function explainMiss(figure: Figure, target: Target): Explanation | undefined {
  const failed = typeof figure.values?.chainlens_failed === 'string';
  const entry = ENTRIES.find((e) => Boolean(e.failed) === failed &&
    e.figures.some((id) => figure.id.startsWith(id)) && (!e.against || (target.against !== undefined && e.against.includes(target.against))));
  return entry?.explain(figure, target);
}
