/**
 * Options of a benchmark run, from argv and the environment:
 * `--quick` (or BENCH_QUICK=1): small sizes and few iterations, a smoke run of the bench code;
 * `--only=fees,percentiles` (or BENCH_ONLY): run only the named figure families;
 * `--out=PATH` (or BENCH_OUT): where the JSON goes (default bench/results/latest.json);
 * `--docs=PATH` (or BENCH_DOCS): where the markdown table goes (default docs/performance.md; `--docs=` skips it);
 * `--e2e-minutes=10,60` (or BENCH_E2E_MINUTES): the mainnet-profile dumps of the end-to-end and browser families.
 * A run of some families keeps the other families' figures of the results file it replaces.
 */

/** The figure families, in the order a full run measures them. */
export const FAMILIES = [
  'bandwidth', 'fees', 'percentiles', 'market', 'recommendation', 'latency', 'localfees', 'server', 'browser', 'startup', 'ingest', 'e2e', 'longrun',
] as const;
export type Family = (typeof FAMILIES)[number];

/** What one run measures and where it writes. */
export interface BenchOptions {
  readonly quick: boolean;
  readonly only: readonly Family[];
  readonly out: string;
  readonly docs: string;
  /** Minutes of the end-to-end family's dumps (each measured; the longest also replayed), and the browser family's. */
  readonly e2eMinutes: readonly number[];
}

/** Parses argv (`process.argv.slice(2)`) and the environment. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const flag = (name: string): string | undefined => {
    const hit = argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
    if (hit === undefined) return undefined;
    return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : '';
  };
  const quick = flag('quick') !== undefined || env.BENCH_QUICK === '1';
  const onlyText = flag('only') ?? env.BENCH_ONLY ?? '';
  const only = onlyText === '' ? [...FAMILIES] : onlyText.split(',').map((s) => s.trim());
  for (const name of only) {
    if (!(FAMILIES as readonly string[]).includes(name)) throw new Error(`unknown figure family ${name}: one of ${FAMILIES.join(', ')}`);
  }
  return {
    quick,
    only: only as Family[],
    out: flag('out') ?? env.BENCH_OUT ?? 'bench/results/latest.json',
    docs: flag('docs') ?? env.BENCH_DOCS ?? 'docs/performance.md',
    e2eMinutes: minutesList(flag('e2e-minutes') ?? env.BENCH_E2E_MINUTES ?? '10,60'),
  };
}

/** A comma-separated list of positive minutes (an empty list is one empty entry, refused). */
function minutesList(text: string): number[] {
  const minutes = text.split(',').map((m) => Number(m.trim()));
  if (minutes.some((m) => !(m > 0))) throw new Error(`--e2e-minutes must list positive minutes: ${text}`);
  return minutes;
}

/** Iteration policy of tinybench for a figure: at least `iterations` runs and `timeMs` of running. */
export interface Repeats {
  readonly iterations: number;
  readonly timeMs: number;
}

/** The default repeats: enough for a median and a spread, bounded for the multi-second baselines. */
export function repeats(options: Pick<BenchOptions, 'quick'>, slow = false): Repeats {
  if (options.quick) return { iterations: 2, timeMs: 0 };
  return slow ? { iterations: 3, timeMs: 1500 } : { iterations: 5, timeMs: 1500 };
}
