/**
 * The physical reference: the memory bandwidth this machine reaches in JavaScript, measured as a
 * plain sum over a Float64Array far larger than the caches. Each kernel figure divides its input
 * bytes per second by this number, to show how close to the limit it runs.
 */
import { measure, type Figure } from './harness.js';
import { repeats, type BenchOptions } from './options.js';

/** Sum of a typed array, the simplest loop that reads every byte once. */
function sum(values: Float64Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}

/** Measures the typed-array sum over 256 MiB (16 MiB in quick mode). */
export async function bandwidthFigure(options: BenchOptions): Promise<Figure> {
  const bytes = options.quick ? 16 << 20 : 256 << 20;
  const values = new Float64Array(bytes / 8);
  for (let i = 0; i < values.length; i++) values[i] = i & 1023;
  let sink = 0;
  const subjects = await measure([{ id: 'typed-array-sum', label: 'plain Float64Array sum', run: () => (sink += sum(values)) }], bytes, repeats(options));
  if (!Number.isFinite(sink)) throw new Error('bandwidth: the sum is not finite');
  const perSecond = subjects[0]!.per_second;
  return {
    id: 'bandwidth.typed-array-sum',
    family: 'bandwidth',
    title: 'Memory bandwidth (plain typed-array sum)',
    size: `${bytes >> 20} MiB Float64Array`,
    work: { unit: 'bytes', count: bytes, bytes },
    subjects,
    skipped: [],
    targets: [],
    values: { bytes_per_s: perSecond, gib_per_s: perSecond / 2 ** 30 },
    notes: ['One thread, sequential reads; the reference each kernel figure is compared with.'],
  };
}
