/**
 * The bench code compiles and runs: the quick mode of two cheap figure families, checked for the
 * shape of its JSON and report only. No timing is asserted here: benchmarks are not timed tests.
 */
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options.js';
import { renderReport } from '../../bench/report.js';
import { runBench } from '../../bench/run.js';

const stats = {
  median_ms: expect.any(Number), mad_ms: expect.any(Number), mean_ms: expect.any(Number), min_ms: expect.any(Number),
  max_ms: expect.any(Number), p99_ms: expect.any(Number), rme_pct: expect.any(Number), samples: expect.any(Number),
};

describe('bench (quick mode)', () => {
  it('parses its options', () => {
    expect(parseOptions(['--quick', '--only=fees,bandwidth', '--docs='], {})).toEqual({
      quick: true, only: ['fees', 'bandwidth'], out: 'bench/results/latest.json', docs: '',
    });
    expect(parseOptions([], { BENCH_QUICK: '1' }).quick).toBe(true);
    expect(() => parseOptions(['--only=nope'], {})).toThrow(/unknown figure family/);
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
});
