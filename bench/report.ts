/**
 * Renders docs/performance.md from a run's results: what each figure measures, the tables with
 * ratios against the targets, and for every missed target why and what would close it
 * (bench/notes.ts). `node dist/bench/report.js [results.json] [out.md]` re-renders it from a saved
 * run without measuring again.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { STAGES } from './e2e/stages.js';
import type { Figure, SubjectResult, Target } from './harness.js';
import { explainMiss } from './notes.js';
import type { BenchResults } from './run.js';

const KERNEL_FAMILIES = new Set(['fees', 'percentiles', 'market', 'recommendation']);

/** 3 significant digits, with a unit. */
function ms(value: number): string {
  if (value >= 1000) return `${(value / 1000).toPrecision(3)} s`;
  if (value >= 1) return `${value.toPrecision(3)} ms`;
  return `${(value * 1000).toPrecision(3)} µs`;
}

function rate(value: number, unit: string): string {
  const [scaled, suffix] = value >= 1e9 ? [value / 1e9, 'G'] : value >= 1e6 ? [value / 1e6, 'M'] : value >= 1e3 ? [value / 1e3, 'k'] : [value, ''];
  return `${scaled.toPrecision(3)}${suffix} ${unit}/s`;
}

const gib = (bytesPerSecond: number) => `${(bytesPerSecond / 2 ** 30).toPrecision(3)} GiB/s`;

function status(target: Target): string {
  if (target.met === null) return 'not measured';
  return target.met ? 'met' : '**MISSED**';
}

function measuredText(target: Target, figure: Figure): string {
  if (target.measured === null) return 'n/a';
  if (target.kind === 'speedup') return `${target.measured < 0.1 ? target.measured.toPrecision(2) : target.measured.toFixed(target.measured < 1 ? 2 : 1)}x`;
  if (target.kind === 'min-rate') return rate(target.measured, figure.work.unit);
  if (target.kind === 'max-ratio') return `${target.measured.toFixed(2)}x`;
  if (target.kind === 'max-mib') return `${Math.round(target.measured).toLocaleString('en-US')} MiB`;
  if (target.kind === 'min-fraction') return `${(100 * target.measured).toFixed(target.measured === 1 ? 0 : 2)}%`;
  return ms(target.measured);
}

const subject = (figure: Figure, id: string): SubjectResult | undefined => figure.subjects.find((s) => s.id === id);

/** "12.3 ms (45x)" for a baseline cell: its median and chainlens' speedup over it, per work unit. */
function baselineCell(figure: Figure, ids: string[]): string {
  const mine = subject(figure, 'chainlens');
  const cells = ids.map((id) => subject(figure, id)).filter((s): s is SubjectResult => s !== undefined);
  if (cells.length === 0) return '—';
  return cells.map((s) => {
    const ratio = mine ? mine.per_second / s.per_second : NaN;
    const sampled = s.count !== undefined ? ` on ${s.count} ${figure.work.unit}` : '';
    return `${ms(s.stats.median_ms)}${sampled} (**${ratio.toFixed(1)}x**)`;
  }).join('<br>');
}

function kernelTable(figures: Figure[]): string[] {
  const lines = [
    '| figure | chainlens median (± MAD) | chainlens rate | DuckDB-WASM SQL | native DuckDB | plain TypeScript | input read / memory bandwidth |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const mine = subject(f, 'chainlens')!;
    const plainIds = f.subjects.filter((s) => s.id.startsWith('plain')).map((s) => s.id);
    const bw = f.bandwidth ? `${gib(f.bandwidth.bytes_per_s)} (${(100 * f.bandwidth.fraction_of_memory_bandwidth).toFixed(0)}%)` : '—';
    lines.push(`| ${f.title} | ${ms(mine.stats.median_ms)} ± ${ms(mine.stats.mad_ms)} | ${rate(mine.per_second, f.work.unit)} | ${baselineCell(f, ['duckdb-wasm'])} | ${baselineCell(f, ['duckdb-native'])} | ${baselineCell(f, plainIds)} | ${bw} |`);
  }
  return lines;
}

function targetTable(figures: Figure[]): string[] {
  const lines = ['| figure | target | measured | status |', '|---|---|---|---|'];
  for (const f of figures) {
    if (f.family === 'latency' && f.targets.length) {
      // one row per method: idle / ingesting p99 over each transport
      const cell = (id: string) => measuredText(f.targets.find((t) => t.against === id)!, f);
      const missed = f.targets.filter((t) => t.met === false).length;
      lines.push(`| ${f.title} | p99: local call < 1 ms, MessagePort < 2 ms (idle / ingesting) | local ${cell('local')} / ${cell('local-ingesting')}; ` +
        `port ${cell('port')} / ${cell('port-ingesting')} | ${missed ? `**MISSED** (${missed} of ${f.targets.length})` : 'met'} |`);
      continue;
    }
    for (const t of f.targets) lines.push(`| ${f.title} | ${t.text} | ${measuredText(t, f)} | ${status(t)} |`);
  }
  return lines;
}

function detail(f: Figure): string[] {
  const load = f.load_average ? ` Load average when this family started: ${f.load_average.join(', ')}.` : '';
  const lines = [`### ${f.title}`, '', `Data: ${f.size}.${load}`, ''];
  lines.push('| subject | median | MAD | min – max | p99 | samples | rate |', '|---|---|---|---|---|---|---|');
  for (const s of f.subjects) {
    const st = s.stats;
    const note = s.note ? ` (${s.note})` : '';
    lines.push(`| ${s.label}${note} | ${ms(st.median_ms)} | ${ms(st.mad_ms)} | ${ms(st.min_ms)} – ${ms(st.max_ms)} | ${ms(st.p99_ms)} | ${st.samples} | ${rate(s.per_second, f.work.unit)} |`);
  }
  for (const s of f.skipped) lines.push(`| ${s.label} | ${s.reason} | | | | | |`);
  lines.push('');
  if (f.bandwidth) {
    lines.push(`chainlens reads its input at ${gib(f.bandwidth.bytes_per_s)}, ${(100 * f.bandwidth.fraction_of_memory_bandwidth).toFixed(0)}% of the measured memory bandwidth (${f.work.bytes!.toLocaleString('en-US')} bytes of input columns per run).`, '');
  }
  if (f.checked) lines.push(`Cross-checked: ${f.checked}.`, '');
  for (const note of f.notes) lines.push(`- ${note}`);
  if (f.notes.length) lines.push('');
  return lines;
}

function latencyTable(figures: Figure[]): string[] {
  const lines = [
    '| method (params) | local p50 / p99 | local, ingesting p50 / p99 | MessagePort p50 / p99 | MessagePort, ingesting p50 / p99 | targets (p99) |',
    '|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const cell = (id: string) => {
      const s = subject(f, id);
      if (s) return `${ms(s.stats.median_ms)} / ${ms(s.stats.p99_ms)}`;
      return f.skipped.find((k) => k.id === id)?.reason ?? '—';
    };
    const targets = f.targets.length ? f.targets.map((t) => `${t.text.replace(' while ingesting', ', ingesting')}: ${status(t)}`).join('<br>') : '(no target)';
    if (f.subjects.length === 0) {
      lines.push(`| ${f.title} | ${f.skipped[0]?.reason ?? '—'} | | | | not measured |`);
      continue;
    }
    lines.push(`| ${f.title} | ${cell('local')} | ${cell('local-ingesting')} | ${cell('port')} | ${cell('port-ingesting')} | ${targets} |`);
  }
  return lines;
}

const seconds = (v: unknown) => (typeof v === 'number' ? ms(v * 1000) : '—');
const mibText = (v: unknown) => (typeof v === 'number' ? `${Math.round(v).toLocaleString('en-US')} MiB` : '—');

/** The end-to-end section: per dump, each subject's wall, CPU and memory, chainlens' ratios, and where its time goes. */
function endToEnd(figures: Figure[]): string[] {
  const dumps = figures.filter((f) => f.subjects.length > 1 && f.values?.chainlens_wall_s !== undefined);
  const others = figures.filter((f) => !dumps.includes(f));
  const lines = [
    '## End to end',
    '',
    'What a user runs: a fresh process pointed at the Parquet files of a generated mainnet-profile dump',
    '(`chainlens generate --profile mainnet`: 2,000 pairs with heavy-tailed activity, ~120 swaps and ~1,450',
    'transactions a block), answering (a) the per-block fee statistics of every block, (b) the 1m fee windows,',
    '(c) the 1m candles of every pair, (d) the 1m recommendation at the newest block and (e) the 5m volume and',
    'VWAP of the 10 most active pairs; chainlens beside native DuckDB (read_parquet + SQL) and Polars (scanParquet +',
    'lazy group_by), the answers cross-checked between them before any figure is kept. The subjects run in turn, three',
    'times (A B C A B C A B C), each after the dump\'s files were read through, and each reports its run of median wall',
    'time. Ratios are chainlens\' figure over the peer\'s (below 1: chainlens is faster or smaller).',
    '',
  ];
  if (figures.length === 0) return [...lines, 'Not measured in this run (`npm run bench -- --only=e2e`).', ''];
  for (const f of dumps) {
    const v = f.values!;
    const load = f.load_average ? ` Load average when the family started: ${f.load_average.join(', ')}.` : '';
    lines.push(`### ${f.title}`, '', `Data: ${f.size}.${f.date ? ` Measured ${f.date}.` : ''}${load}`, '');
    lines.push('| subject | wall | CPU | peak RSS | blocks/s | chainlens / it: wall, CPU, RSS |', '|---|---|---|---|---|---|');
    for (const s of f.subjects) {
      const ratios = s.id === 'chainlens' ? '—'
        : [v[`wall_ratio_chainlens_to_${s.id}`], v[`cpu_ratio_chainlens_to_${s.id}`], v[`rss_ratio_chainlens_to_${s.id}`]]
          .map((r) => (typeof r === 'number' ? `${r.toFixed(2)}x` : '—')).join(', ');
      lines.push(`| ${s.label} | ${seconds(v[`${s.id}_wall_s`])} | ${seconds(v[`${s.id}_cpu_s`])} | ${mibText(v[`${s.id}_peak_rss_mib`])} | ${rate(s.per_second, 'blocks')} | ${ratios} |`);
    }
    const stages = STAGES.map((s) => `${s} ${Number(v[`chainlens_stage_${s}_pct`]).toFixed(0)}%`).join(', ');
    lines.push('', `chainlens: ${rate(Number(v.chainlens_blocks_per_s), 'blocks')} and ${rate(Number(v.chainlens_transactions_per_s), 'transactions')} end to end; ` +
      `the load alone ${seconds(v.chainlens_load_s)} (${rate(Number(v.chainlens_load_blocks_per_s), 'blocks')}). CPU by stage (profiled run): ${stages}.`, '');
    if (f.checked) lines.push(`Cross-checked: ${f.checked}.`, '');
  }
  for (const f of others) lines.push(...detail(f), ...valuesTable(f.values ?? {}), '');
  if (dumps[0]) for (const note of dumps[0].notes) lines.push(`- ${note}`);
  lines.push('');
  return lines;
}

function valuesTable(values: Record<string, number | string | null>): string[] {
  const lines = ['| value | |', '|---|---|'];
  const number = (v: number) => (Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : Number(v.toPrecision(4)).toString());
  for (const [k, v] of Object.entries(values)) lines.push(`| ${k} | ${typeof v === 'number' ? number(v) : String(v)} |`);
  return lines;
}

/** "22.2k req/s<br>0.38 / 2.62 ms": a server run's rate, p50 and p99 (or a dash). */
function serverCell(f: Figure, id: string): string {
  const s = subject(f, id);
  if (!s) return '—';
  const errors = Number(f.values?.[`${id}_errors`] ?? 0);
  return `${rate(s.per_second, 'req')}<br>${ms(s.stats.median_ms)} / ${ms(s.stats.p99_ms)}${errors ? `<br>**${errors} errors**` : ''}`;
}

/** chainlens' requests/s under `id` over the bare server's at the same connections. */
function serverRatio(f: Figure, id: string, connections: number): string {
  const mine = subject(f, `${id}-${connections}c`);
  const bare = subject(f, `bare-${connections}c`);
  if (!mine || !bare) return '—';
  const ratio = mine.per_second / bare.per_second;
  return `${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}x`;
}

/** The server family: HTTP requests/s and latency per method and condition beside the bare server, then the WebSockets. */
function serverSection(figures: Figure[]): string[] {
  const lines = [
    '## Server: HTTP and WebSocket',
    '',
    '`serve(engine)` in its own process, loaded with a 2-minute mainnet-profile dump and then 16 more minutes of',
    'its continuation replayed (the engine holding the last 15 minutes, the replay\'s retention), under',
    'autocannon (POST / with limit-1 calls, keep-alive, no pipelining) from another process, beside a bare',
    '`node:http` server answering the very bytes chainlens answered (the transport\'s own limit on this machine).',
    '"Idle": the replay paused. "Speed Infinity": while the replay ingests as fast as it can. "Speed 1": while a',
    'replay ingests at the chain\'s own pace (2.5 blocks/s). Cells: requests/s, then p50 / p99 latency.',
    '',
  ];
  const methods = figures.filter((f) => f.id.startsWith('server.http-') && f.id !== 'server.http-summary');
  if (figures.length === 0) return [...lines, 'Not measured in this run (`npm run bench -- --only=server`).', ''];
  const load = figures[0]!.load_average ? ` Load average when the family started: ${figures[0]!.load_average.join(', ')} (2 cores).` : '';
  lines.push('### 10 connections, every method', '', ...(load ? [load.trim(), ''] : []));
  lines.push('| method (params) | answer | idle | speed Infinity | speed 1 | bare node:http | speed Infinity / bare | idle / bare |', '|---|---|---|---|---|---|---|---|');
  for (const f of methods) {
    lines.push(`| ${f.title.replace(/^HTTP /, '')} | ${Number(f.values?.answer_bytes ?? 0).toLocaleString('en-US')} B | ${serverCell(f, 'chainlens-idle-10c')} | ` +
      `${serverCell(f, 'chainlens-ingesting-10c')} | ${serverCell(f, 'chainlens-live-10c')} | ${serverCell(f, 'bare-10c')} | ` +
      `${serverRatio(f, 'chainlens-ingesting', 10)} | ${serverRatio(f, 'chainlens-idle', 10)} |`);
  }
  lines.push('', '### 1 and 100 connections', '', '| method | connections | idle | speed Infinity | bare node:http | speed Infinity / bare | idle / bare |', '|---|---|---|---|---|---|---|');
  for (const f of methods) {
    for (const c of [1, 100]) {
      if (!subject(f, `bare-${c}c`)) continue;
      lines.push(`| ${f.title.replace(/^HTTP /, '').replace(/ \(.*$/, '')} | ${c} | ${serverCell(f, `chainlens-idle-${c}c`)} | ${serverCell(f, `chainlens-ingesting-${c}c`)} | ` +
        `${serverCell(f, `bare-${c}c`)} | ${serverRatio(f, 'chainlens-ingesting', c)} | ${serverRatio(f, 'chainlens-idle', c)} |`);
    }
  }
  lines.push('');
  for (const f of figures.filter((x) => !methods.includes(x))) {
    lines.push(`### ${f.title}`, '', `Data: ${f.size}.`, '');
    if (f.subjects.length) {
      const st = f.subjects[0]!.stats;
      lines.push(`${f.subjects[0]!.label}: median ${ms(st.median_ms)}, p99 ${ms(st.p99_ms)}, max ${ms(st.max_ms)}; ${rate(f.subjects[0]!.per_second, f.work.unit)} delivered.`, '');
    }
    lines.push(...valuesTable(f.values ?? {}), '');
    for (const note of f.notes) lines.push(`- ${note}`);
    lines.push('');
  }
  return lines;
}

/** The browser family: per dump, the app's first chart and full load in Chromium beside the Node engine's load. */
function browserSection(figures: Figure[]): string[] {
  const lines = [
    '## In the browser',
    '',
    'The browser app (dist/app, served on loopback as `chainlens ui` serves it) in Debian\'s Chromium, headless, a fresh',
    'browser per dump: the dump\'s Parquet files given to the app\'s file input as a user picks them, the time to the',
    'first chart (the market view\'s candles drawn, while the load goes on) and to the full load, the browser\'s memory',
    '(its whole process tree), beside the Node engine loading the same files in a fresh process.',
    '',
  ];
  if (figures.length === 0) return [...lines, 'Not measured in this run (`npm run bench -- --only=browser`).', ''];
  const v = (f: Figure, key: string) => f.values?.[key];
  const loads = (f: Figure) => f.targets.find((t) => t.kind === 'min-fraction');
  lines.push(
    '| dump | first chart | full load | blocks/s | browser peak PSS / RSS sum (renderer) | longest main-thread task | Node engine: load, blocks/s, peak RSS | loads in the page |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const f of figures) {
    const page = subject(f, 'chainlens');
    const node = subject(f, 'node');
    const target = loads(f);
    lines.push(`| ${f.id.replace(/^browser\.load-/, '')} | ${seconds(v(f, 'first_chart_s'))} | ${seconds(v(f, 'full_load_s'))} | ${page ? rate(page.per_second, 'blocks') : '—'} | ` +
      `${mibText(v(f, 'browser_peak_tree_pss_mib'))} / ${mibText(v(f, 'browser_peak_tree_rss_mib'))} (${mibText(v(f, 'browser_peak_renderer_rss_mib'))}) | ` +
      `${typeof v(f, 'main_thread_longest_task_ms') === 'number' ? ms(Number(v(f, 'main_thread_longest_task_ms'))) : '—'} | ` +
      `${node ? `${ms(node.stats.median_ms)}, ${rate(node.per_second, 'blocks')}, ${mibText(v(f, 'node_peak_rss_mib'))}` : '—'} | ` +
      `${target ? `${status(target)}${target.met ? '' : ` (${measuredText(target, f)} of the blocks)`}` : '—'} |`);
  }
  lines.push('');
  for (const f of figures) {
    lines.push(...detail({ ...f, notes: [] }));
    if (typeof v(f, 'chainlens_failed') === 'string') lines.push(`**The load failed in the page:** ${String(v(f, 'chainlens_failed'))}`, '');
    lines.push(...valuesTable(f.values ?? {}), '');
  }
  for (const note of figures[0]!.notes) lines.push(`- ${note}`);
  lines.push('');
  return lines;
}

/** Missed targets, grouped by their explanation (the latency misses share a few). */
function misses(figures: Figure[]): string[] {
  const groups = new Map<string, { why: string; close: string; items: Map<string, string[]> }>();
  for (const f of figures) {
    for (const t of f.targets) {
      if (t.met !== false) continue;
      const e = explainMiss(f, t) ?? { why: 'not analysed yet.', close: 'not analysed yet.' };
      const key = `${e.why}\n${e.close}`;
      const group = groups.get(key) ?? { ...e, items: new Map<string, string[]>() };
      group.items.set(f.title, [...(group.items.get(f.title) ?? []), `${t.text} (measured ${measuredText(t, f)})`]);
      groups.set(key, group);
    }
  }
  const lines: string[] = [];
  for (const g of groups.values()) {
    lines.push(`- ${[...g.items].map(([title, targets]) => `**${title}**: ${targets.join('; ')}`).join('. ')}.`);
    lines.push(`  - Why: ${g.why}`, `  - What would close it: ${g.close}`);
  }
  return lines.length ? lines : ['No target was missed in this run.'];
}

/** The local fee markets' latency per account count, the account columns' memory per block, and the first estimate after a Parquet load. */
function localFeeSection(figures: readonly Figure[]): string[] {
  if (figures.length === 0) return ['### Local fee markets', '', 'Not measured in this run.', ''];
  const out = [
    '### Local fee markets',
    '',
    'chain::priorityfee::estimate and ::recent (chainlens methods beyond the seed) for the accounts most',
    'write-locked, over a lookback of 150 mainnet-profile blocks, as local calls on an idle engine; beside the',
    'plain TypeScript a user would write over the same transactions as row objects (the combined tiers only:',
    'filter, sort, nearest rank), cross-checked against the engine\'s combined tiers first.',
    '',
  ];
  for (const f of figures) out.push(...detail(f));
  const memory = figures.find((f) => f.id.startsWith('localfees.estimate-') && f.values)?.values;
  if (memory) out.push('Memory of the account columns in the resident store, per retained block:', '', ...valuesTable(memory), '');
  const loads = figures.find((f) => f.id === 'localfees.first-after-load')?.values;
  if (loads) {
    const seconds = (ms: unknown) => `${(Number(ms) / 1000).toFixed(2)} s`;
    out.push(`The loads before the first estimate (medians): ${seconds(loads.load_ms_accounts_in_file)} with the accounts left in the file, `
      + `${seconds(loads.load_ms_accounts_at_load)} with them read at load. A load from Parquet leaves them in the file; the first estimate or `
      + 'recent over blocks not asked before reads their lists back and interns them (docs/semantics.md, Local fee markets).', '');
  }
  return out;
}

/** The markdown of docs/performance.md for `results`. */
export function renderReport(results: BenchResults): string {
  const m = results.machine;
  const figures = results.figures;
  const kernels = figures.filter((f) => KERNEL_FAMILIES.has(f.family));
  const latency = figures.filter((f) => f.family === 'latency');
  const ingest = figures.filter((f) => f.family === 'ingest');
  const startup = figures.filter((f) => f.family === 'startup');
  const bandwidth = results.memory_bandwidth_bytes_per_s;
  // the families this run measured, when it kept others' figures from earlier runs
  const isKept = (f: Figure) => f.date !== undefined && f.date < results.date;
  const ranOnly = figures.some(isKept) ? [...new Set(figures.filter((f) => !isKept(f)).map((f) => f.family))] : [];
  const out: string[] = [
    '# Performance',
    '',
    '<!-- Generated by `npm run bench` (bench/run.ts, bench/report.ts) from bench/results/latest.json; edit those, not this file. -->',
    '',
    'chainlens is measured side by side with what a user would otherwise run, in one process and one run:',
    'the same aggregate in **DuckDB-WASM SQL** (the build chainlens itself uses as its store), in **native DuckDB**',
    '(`@duckdb/node-api`, multi-threaded) and in **plain TypeScript**, on the same seeded data. Every figure is a',
    'tinybench task (median and median absolute deviation over its samples, after a warm-up run); ratios',
    'are chainlens\' speedup per unit of work at the medians. Each run cross-checks the subjects\' answers',
    'against each other before timing them (see "Cross-checked" under each figure).',
    '',
    '```sh',
    'npm run bench                      # the full run, several minutes: writes bench/results/latest.json and this file',
    'npm run build && node dist/bench/run.js --quick --docs=    # small sizes: a smoke run of the bench code',
    'node dist/bench/run.js --only=percentiles,market           # some families (see bench/options.ts); the others keep their figures',
    'npm run bench -- --only=e2e        # end to end: generates (once, cached in .chainlens/bench/) and measures the mainnet-profile dumps',
    'npm run bench -- --only=server     # the HTTP and WebSocket server beside a bare node:http server (about 5 minutes)',
    'npm run bench -- --only=browser    # the browser app in Debian\'s Chromium on the e2e dumps, beside the Node engine',
    '```',
    '',
    `## This run`,
    '',
    `- Date: ${results.date} (${results.mode} run${ranOnly.length ? ` of ${ranOnly.join(', ')} only` : ''}, ${(results.duration_s / 60).toFixed(1)} minutes).`,
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.platform} ${m.arch} (${m.kernel}); Node ${m.node} (V8 ${m.v8}).`,
    `- Versions: ${Object.entries(m.versions).map(([k, v]) => `${k} ${v}`).join(', ')}.`,
    ...(m.source ? [`- Code: commit ${m.source.commit}${m.source.uncommitted.length ? `, with uncommitted changes in ${m.source.uncommitted.join(', ')}` : ''}.`] : []),
    `- Load average (1, 5, 15 min) at the start: ${m.load_average_start.join(', ')}; at the end: ${m.load_average_end?.join(', ') ?? 'n/a'}. ` +
      `The machine has ${m.cores} cores shared with other processes (other engineers' test runs): a load above 1 means the ` +
      'benchmark competed for the CPU, so absolute times are pessimistic and noisier than on an idle machine; the ratios, ' +
      'measured in the same minutes, are the figures to read. Full runs an hour apart on this machine differed by up to 2x on ' +
      'single subjects (native DuckDB most, its two threads competing with the other processes), so a ratio near its target ' +
      'can land on either side of it from one run to the next.',
    `- Memory bandwidth (plain Float64Array sum, one thread): ${bandwidth ? gib(bandwidth) : 'not measured'}.`,
    '',
  ];
  const kept = [...new Set(figures.filter(isKept).map((f) => `${f.family} (${f.date!.slice(0, 16)}Z${f.commit ? `, commit ${f.commit}` : ''})`))];
  if (kept.length) out.splice(out.length - 1, 0, `- Kept from earlier runs (families not run this time; their figures carry the load average of their own run): ${kept.join(', ')}.`);
  if (results.failures.length) {
    out.push('**Families that failed in this run** (no figure is shown for them):', '');
    for (const f of results.failures) out.push(`- ${f.family}: \`${f.error.split('\n')[0]}\``);
    out.push('');
  }
  out.push(...endToEnd(figures.filter((f) => f.family === 'e2e')));
  out.push('## Targets', '', ...targetTable(figures), '', '### Misses: why, and what would close them', '', ...misses(figures), '');
  if (kernels.length) {
    out.push(
      '## Kernel figures',
      '',
      'Each kernel runs in-process through its typed wrapper (src/kernels/*.ts): columns are copied into',
      'WebAssembly memory, the kernel runs, results are read back as typed arrays or records. The engine runs',
      'the same kernels in its worker. The SQL baselines hold the same columns as tables and are timed up to a',
      'materialized result (Arrow IPC bytes from DuckDB-WASM, a materialized result in native DuckDB), without',
      'converting it to JavaScript values. Cells: median, and in bold chainlens\' speedup over that subject.',
      'The last column is chainlens\' input bytes per second against the memory bandwidth above: how close the',
      'kernel runs to the physical limit of reading its input once.',
      '',
      ...kernelTable(kernels),
      '',
    );
    for (const f of kernels) out.push(...detail(f));
  }
  out.push(
    '## Latency, ingest and start-up',
    '',
    '### Query latency',
    '',
    'Limit 1 on every method (the latest answer), over a local call (`engine.call`, issued from a new macrotask',
    'as an arriving request would be: `setImmediate`, a few microseconds) and over a MessagePort',
    '(`engine.serve` and `connect` on a MessageChannel in the same thread: the JSON-RPC envelope is encoded,',
    'posted and decoded both ways), on an engine holding five minutes of the synthetic market. "Ingesting":',
    'the same calls while a loop pushes the next generated block through `engine.ingest`, one block per call',
    'at full speed, on the same thread (as a live Node service would).',
    '',
  );
  if (latency.length) {
    out.push(...latencyTable(latency), '');
    const busy = latency.find((f) => f.values?.ingest_blocks_per_s_while_querying !== undefined)?.values?.ingest_blocks_per_s_while_querying;
    if (typeof busy === 'number') out.push(`Ingestion kept ${busy.toFixed(1)} blocks/s going while the "ingesting" calls ran.`, '');
    if (latency[0]!.load_average) out.push(`Load average when the latency figures started: ${latency[0]!.load_average.join(', ')} (2 cores).`, '');
  } else out.push('Not measured in this run.', '');
  if (ingest.length) for (const f of ingest) out.push(...detail(f), ...valuesTable(f.values ?? {}), '');
  else out.push('### Ingest', '', 'Not measured in this run.', '');
  if (startup.length) for (const f of startup) out.push(...detail(f), ...valuesTable(f.values ?? {}), '');
  else out.push('### Start-up and memory', '', 'Not measured in this run.', '');
  out.push(...localFeeSection(figures.filter((f) => f.family === 'localfees')));
  out.push(...serverSection(figures.filter((f) => f.family === 'server')));
  out.push(...browserSection(figures.filter((f) => f.family === 'browser')));
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

const isMain = process.argv[1] !== undefined && /report\.js$/.test(process.argv[1]) && import.meta.url.endsWith('report.js');
if (isMain) {
  const input = process.argv[2] ?? 'bench/results/latest.json';
  const output = process.argv[3] ?? 'docs/performance.md';
  const results = JSON.parse(await readFile(input, 'utf8')) as BenchResults;
  await writeFile(output, renderReport(results));
  console.log(`wrote ${path.resolve(output)} from ${input}`);
}
