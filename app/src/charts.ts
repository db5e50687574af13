/**
 * lightweight-charts, set up once for every view: a time axis in UTC seconds that autosizes to its
 * container. The library needs one point per second, ascending, so series of per-block points
 * (several blocks a second) keep each second's newest point; the tables show every point.
 */
import { createChart, type IChartApi, type UTCTimestamp } from 'lightweight-charts';

export function timeChart(container: HTMLElement): IChartApi {
  return createChart(container, {
    autoSize: true,
    layout: { background: { color: '#ffffff' }, textColor: '#1f2933', attributionLogo: false },
    grid: { vertLines: { color: '#eef1f4' }, horzLines: { color: '#eef1f4' } },
    timeScale: { timeVisible: true, secondsVisible: true },
    localization: { timeFormatter: (t: number) => new Date(t * 1000).toISOString().slice(0, 19).replace('T', ' ') },
  });
}

/** Milliseconds since the epoch of a wire timestamp (ISO-8601 with up to 9 fraction digits; Date keeps 3). */
export const msOf = (iso: string): number => Date.parse(`${iso.slice(0, 23)}Z`);

/** Whole UTC seconds of a wire timestamp. */
export const secondsOf = (iso: string): UTCTimestamp => Math.floor(msOf(iso) / 1000) as UTCTimestamp;

/** A wire decimal as a chart value (charts draw floats; the tables show the exact text). */
export const valueOf = (text: unknown): number | undefined => (text === null || text === undefined || text === '' ? undefined : Number(text));

/**
 * Points for a series from records in any order: ascending, one per second (the newest record of
 * each second), records without a value left out.
 */
export function seriesPoints<T>(records: readonly Record<string, unknown>[], time: string, point: (r: Record<string, unknown>) => T | undefined): (T & { time: UTCTimestamp })[] {
  const bySecond = new Map<number, { key: string; point: T }>();
  for (const r of records) {
    const p = point(r);
    if (p === undefined) continue;
    const key = String(r[time]);
    const second = secondsOf(key);
    const seen = bySecond.get(second);
    if (!seen || seen.key < key) bySecond.set(second, { key, point: p });
  }
  return [...bySecond.entries()].sort((a, b) => a[0] - b[0]).map(([second, { point }]) => ({ ...point, time: second as UTCTimestamp }));
}
