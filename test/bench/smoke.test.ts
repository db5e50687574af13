/**
 * The bench code compiles and runs: the quick mode of two cheap figure families, of the end-to-end
 * family (a tiny dump, its child processes run from dist/: build first) and of the browser family
 * (dist/app in Chromium), checked for the shape of its JSON and report only. No timing is asserted here: benchmarks are not timed tests.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Figure } from '../../bench/harness.js';
import { parseOptions } from '../../bench/options.js';
import { renderReport } from '../../bench/report.js';
import { keptFigures, runBench, type BenchResults } from '../../bench/run.js';

const stats = {
  median_ms: expect.any(Number), mad_ms: expect.any(Number), mean_ms: expect.any(Number), min_ms: expect.any(Number),
  max_ms: expect.any(Number), p99_ms: expect.any(Number), rme_pct: expect.any(Number), samples: expect.any(Number),
};

describe('bench (quick mode)', () => {
  it('parses its options', () => {
    expect(parseOptions(['--quick', '--only=fees,bandwidth', '--docs='], {})).toEqual({
      quick: true, only: ['fees', 'bandwidth'], out: 'bench/results/latest.json', docs: '', e2eMinutes: [10, 60],
    });
    expect(parseOptions(['--e2e-minutes=2,10'], {}).e2eMinutes).toEqual([2, 10]);
    expect(() => parseOptions(['--e2e-minutes=0'], {})).toThrow(/e2e-minutes/);
    expect(parseOptions([], { BENCH_QUICK: '1' }).quick).toBe(true);
    expect(() => parseOptions(['--only=nope'], {})).toThrow(/unknown figure family/);
  });

  it('keeps the figures of the families a run did not measure, with their date and commit', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'chainlens-bench-'));
    try {
      const file = path.join(dir, 'latest.json');
      const figure = (id: string, family: string) => ({ id, family, title: id, size: '', work: { unit: 'blocks', count: 1 }, subjects: [], skipped: [], targets: [], notes: [] });
      await writeFile(file, JSON.stringify({ mode: 'full', date: '2026-01-01T00:00:00.000Z', figures: [figure('fees.block-stats', 'fees'), figure('e2e.10-minute', 'e2e')], failures: [] }));
      const now = { mode: 'full', date: '2026-02-01T00:00:00.000Z', figures: [figure('e2e.10-minute', 'e2e')], failures: [] } as unknown as BenchResults;
      expect(await keptFigures(now, file)).toEqual([{ ...figure('fees.block-stats', 'fees'), date: '2026-01-01T00:00:00.000Z' }]);
      expect(await keptFigures({ ...now, mode: 'quick' }, file)).toEqual([]);
      expect(await keptFigures(now, path.join(dir, 'none.json'))).toEqual([]);
      // a results file that names its commit gives it to the figures kept from it
      const measuredAt = { mode: 'full', date: '2026-01-01T00:00:00.000Z', machine: { source: { commit: 'abc1234', uncommitted: [] } }, figures: [figure('fees.block-stats', 'fees')], failures: [] };
      await writeFile(file, JSON.stringify(measuredAt));
      expect(await keptFigures(now, file)).toEqual([{ ...figure('fees.block-stats', 'fees'), date: '2026-01-01T00:00:00.000Z', commit: 'abc1234' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs the bandwidth and fee figures and reports them', async () => {
    const results = await runBench(parseOptions(['--quick', '--only=bandwidth,fees', '--docs='], {}));
    expect(results.failures).toEqual([]);
    expect(results).toMatchObject({
      schema: 1, mode: 'quick', date: expect.any(String),
      machine: { cores: expect.any(Number), node: process.version, load_average_start: expect.any(Array), load_average_end: expect.any(Array) },
      memory_bandwidth_bytes_per_s: expect.any(Number),
    });
    expect(results.figures.map((f) => f.id)).toEqual(['bandwidth.typed-array-sum', 'fees.block-stats']);
    const fees = results.figures[1]!;
    expect(fees.subjects.map((s) => s.id)).toEqual(['chainlens', 'duckdb-wasm', 'duckdb-native', 'plain-ts', 'plain-ts-oracle']);
    for (const s of fees.subjects) expect(s).toMatchObject({ label: expect.any(String), stats, per_second: expect.any(Number) });
    expect(fees.targets.map((t) => t.kind)).toEqual(['min-rate', 'speedup']);
    for (const t of fees.targets) expect(t).toMatchObject({ text: expect.any(String), required: expect.any(Number), measured: expect.any(Number), met: expect.any(Boolean) });
    expect(fees.bandwidth).toMatchObject({ bytes_per_s: expect.any(Number), fraction_of_memory_bandwidth: expect.any(Number) });
    expect(fees.checked).toMatch(/equal/);
    expect(JSON.parse(JSON.stringify(results))).toEqual(results); // plain JSON: no bigint, no NaN lost

    const markdown = renderReport(results);
    expect(markdown).toMatch(/^# Performance/);
    expect(markdown).toContain('| Per-block priority-fee statistics |');
    expect(markdown).toContain('## Targets');
  });

  it('runs the end-to-end family on a tiny dump: three subjects in fresh processes, cross-checked, every figure present', async () => {
    const results = await runBench(parseOptions(['--quick', '--only=e2e', '--docs='], {}));
    expect(results.failures).toEqual([]);
    expect(results.figures.map((f) => f.id)).toEqual(['e2e.tiny', 'e2e.replay-tiny', 'e2e.first-answer-tiny']);
    const [dump, replay, first] = results.figures as [Figure, Figure, Figure];
    expect(dump.subjects.map((s) => s.id)).toEqual(['chainlens', 'duckdb-native', 'polars']);
    for (const s of dump.subjects) expect(s).toMatchObject({ label: expect.any(String), stats, per_second: expect.any(Number) });
    for (const id of ['chainlens', 'duckdb-native', 'polars']) {
      for (const what of ['wall_s', 'cpu_s', 'peak_rss_mib']) expect(dump.values![`${id}_${what}`]).toBeGreaterThan(0);
    }
    const stages = ['decode', 'validate', 'compute', 'store', 'other'].map((s) => dump.values![`chainlens_stage_${s}_pct`] as number);
    expect(stages.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    expect(dump.values).toMatchObject({ chainlens_blocks_per_s: expect.any(Number), chainlens_load_blocks_per_s: expect.any(Number), wall_ratio_chainlens_to_polars: expect.any(Number) });
    expect(dump.targets.map((t) => [t.kind, t.against])).toEqual([['speedup', 'duckdb-native'], ['speedup', 'polars'], ['min-rate', undefined], ['max-ratio', undefined]]);
    for (const t of [...dump.targets, ...replay.targets]) expect(t).toMatchObject({ measured: expect.any(Number), met: expect.any(Boolean) });
    expect(dump.checked).toMatch(/every row of \(a\)-\(e\)/);
    expect(replay.values!.blocks_per_s).toBeGreaterThan(0);
    expect(first.subjects.map((s) => s.id)).toEqual(['chainlens', 'duckdb-native', 'polars']);

    const markdown = renderReport(results);
    expect(markdown.indexOf('## End to end')).toBeGreaterThan(0);
    expect(markdown.indexOf('## End to end')).toBeLessThan(markdown.indexOf('## Targets'));
    expect(markdown).toContain('| native DuckDB (read_parquet + SQL) |');
  }, 180_000);

  it('runs the browser family: the app in Chromium beside the Node engine, on the 2-minute dump', async () => {
    const results = await runBench(parseOptions(['--quick', '--only=browser', '--docs='], {}));
    expect(results.failures).toEqual([]);
    const [figure] = results.figures;
    expect(results.figures).toHaveLength(1);
    expect(figure!.id).toMatch(/^browser\./);
    for (const what of ['first_chart_s', 'full_load_s', 'browser_peak_tree_pss_mib', 'node_load_s']) expect(figure!.values![what]).toBeGreaterThan(0);
    for (const t of figure!.targets) expect(t).toMatchObject({ measured: expect.any(Number), met: expect.any(Boolean) });
    expect(renderReport(results)).toContain('In the browser');
  }, 300_000);
});
