/**
 * The shape of every figure and the tinybench runner that measures a figure's subjects (chainlens
 * and its baselines) side by side, in one Bench, in this process.
 */
import { Bench, type Task } from 'tinybench';
import type { Family, Repeats } from './options.js';

/** Latency statistics of one subject, in milliseconds (tinybench's, after its warm-up). */
export interface Stats {
  median_ms: number;
  /** Median absolute deviation (unscaled), the spread. */
  mad_ms: number;
  mean_ms: number;
  min_ms: number;
  max_ms: number;
  p99_ms: number;
  /** Relative margin of error of the mean at 95%, percent. */
  rme_pct: number;
  samples: number;
}

/** The subjects of a kernel figure: chainlens and its three baselines. */
export const SUBJECTS = {
  chainlens: 'chainlens kernel',
  'duckdb-wasm': 'DuckDB-WASM SQL',
  'duckdb-native': 'native DuckDB SQL',
  'plain-ts': 'plain TypeScript',
} as const;

/** One measured subject of a figure. */
export interface SubjectResult {
  id: string;
  label: string;
  stats: Stats;
  /** Work units per second at the median (blocks/s, samples/s, ...). */
  per_second: number;
  /** Work units of one run, when a subject measured fewer than the figure's (see its note). */
  count?: number;
  note?: string;
}

/** A subject that was not measured, and why (never a made-up figure). */
export interface Skipped {
  id: string;
  label: string;
  reason: string;
}

/** A target of the issue, checked against this run. */
export interface Target {
  text: string;
  /**
   * max-ratio: chainlens' figure over a baseline's (memory), to stay below `required`; max-mib: memory in MiB, below `required`;
   * min-fraction: a share of what was due (pushes delivered), at least `required`.
   */
  kind: 'speedup' | 'min-rate' | 'max-latency' | 'max-ratio' | 'max-mib' | 'min-fraction';
  /** For a speedup: the baseline subject id. */
  against?: string;
  required: number;
  /** Null when it could not be measured (see the figure's skipped list). */
  measured: number | null;
  met: boolean | null;
}

/** One figure: a computation at one size, every subject measured in the same run. */
export interface Figure {
  id: string;
  family: Family;
  title: string;
  /** Data set and size, in words. */
  size: string;
  /** What one run of a subject does: `count` units of `unit`, reading `bytes` of input columns. */
  work: { unit: string; count: number; bytes?: number };
  subjects: SubjectResult[];
  skipped: Skipped[];
  targets: Target[];
  /** chainlens' input bytes per second at its median, against the machine's measured memory bandwidth. */
  bandwidth?: { bytes_per_s: number; fraction_of_memory_bandwidth: number };
  /** Scalar results of an end-to-end figure (rates, memory, ...). */
  values?: Record<string, number | string | null>;
  /** What was cross-checked between the subjects' answers. */
  checked?: string;
  /** When the figure was measured (set by the run; figures kept from an earlier run keep theirs). */
  date?: string;
  /** The commit a figure kept from an earlier run measured (that run's). */
  commit?: string;
  /** The machine's 1, 5 and 15 minute load averages when the figure's family started. */
  load_average?: number[];
  notes: string[];
}

/** A subject to measure: `run` is one timed repetition, `before` untimed set-up before each. */
export interface Subject {
  id: string;
  label?: string;
  run: () => unknown;
  before?: () => void | Promise<void>;
  note?: string;
  /** Work units of one run when they differ from the figure's (a slow baseline measured on a sample). */
  count?: number;
}

/** Converts a finished tinybench task into Stats. */
export function statsOf(task: Task): Stats {
  const result = task.result;
  if (result.state !== 'completed') {
    const error = result.state === 'errored' ? result.error : new Error(`task ${task.name}: ${result.state}`);
    throw error;
  }
  const l = result.latency;
  return {
    median_ms: l.p50, mad_ms: l.mad, mean_ms: l.mean, min_ms: l.min, max_ms: l.max, p99_ms: l.p99,
    rme_pct: l.rme, samples: l.samplesCount,
  };
}

/**
 * Runs the subjects side by side (one Bench, in order) and returns their results; `count` work
 * units per run gives the rates. A subject that throws fails the figure: nothing is made up.
 */
export async function measure(subjects: readonly Subject[], count: number, repeats: Repeats): Promise<SubjectResult[]> {
  const bench = new Bench({
    iterations: repeats.iterations,
    time: repeats.timeMs,
    warmupIterations: 1,
    warmupTime: 0,
    throws: true,
  });
  for (const s of subjects) bench.add(s.id, s.run, s.before ? { beforeEach: s.before } : {});
  await bench.run();
  return bench.tasks.map((task, i) => {
    const s = subjects[i]!;
    const stats = statsOf(task);
    const result: SubjectResult = {
      id: s.id,
      label: s.label ?? SUBJECTS[s.id as keyof typeof SUBJECTS] ?? s.id,
      stats,
      per_second: (s.count ?? count) / (stats.median_ms / 1000),
    };
    if (s.count !== undefined) result.count = s.count;
    if (s.note) result.note = s.note;
    return result;
  });
}

/** A speedup target: chainlens' rate over the baseline's (per work unit, at the medians) must be at least `required`. */
export function speedup(subjects: readonly SubjectResult[], against: string, required: number): Target {
  const mine = subjects.find((s) => s.id === 'chainlens');
  const theirs = subjects.find((s) => s.id === against);
  const measured = mine && theirs ? mine.per_second / theirs.per_second : null;
  const label = SUBJECTS[against as keyof typeof SUBJECTS] ?? against;
  return {
    text: `>= ${required}x faster than ${label}`,
    kind: 'speedup', against, required, measured, met: measured === null ? null : measured >= required,
  };
}

/** Milliseconds of a high-resolution interval. */
export const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

/** Median of numbers (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile of numbers, p in percent. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Stats of raw latency samples (for figures timed outside tinybench, such as concurrent queries). */
export function statsOfSamples(samples: readonly number[]): Stats {
  const m = median(samples);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const variance = samples.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, samples.length - 1);
  return {
    median_ms: m,
    mad_ms: median(samples.map((x) => Math.abs(x - m))),
    mean_ms: mean,
    min_ms: samples.reduce((a, b) => Math.min(a, b), Infinity),
    max_ms: samples.reduce((a, b) => Math.max(a, b), -Infinity),
    p99_ms: percentile(samples, 99),
    rme_pct: samples.length > 1 ? (100 * 1.96 * Math.sqrt(variance / samples.length)) / mean : 0,
    samples: samples.length,
  };
}
