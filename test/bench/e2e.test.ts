/** The end-to-end family's pure parts: the answers' comparison, the most active pairs, the stage attribution. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareAnswers, mostActive, type Answers, type Row } from '../../bench/e2e/answers.js';
import { BlockFees } from '../../src/schema/records.js';
import { attribute } from '../../bench/e2e/stages.js';
import { errorLines } from '../../bench/child.js';
import type { Figure } from '../../bench/harness.js';
import { explainMiss } from '../../bench/notes.js';

/** A BlockFees row with every field: integers 1, floats 1.5, times and durations fixed. */
function blockRow(): Row {
  const value = (type: string): Row[string] =>
    type === 'Float4' || type === 'Float8' ? 1.5 : type === 'DateTime' ? '2026-01-01T00:00:00.000000000Z' : type === 'Utf8' ? 'x' : '1';
  return Object.fromEntries(BlockFees.fields.map(([name, type]) => [name, value(type)]));
}
const withBlocks = (...blocks: Row[]): Answers => ({ blocks, windows: [], candles: [], recommendation: [], top: [] });

describe('compareAnswers', () => {
  it('takes integers exactly and floats within their tolerance, and names the first difference', () => {
    const mine = withBlocks({ ...blockRow(), slot: '7' });
    const compared = compareAnswers(mine, withBlocks({ ...blockRow(), slot: '7', std_dev: 1.5 * (1 + 1e-12), id: 'another id' }), 'peer');
    expect(compared).toBe(BlockFees.fields.length - 1); // all but the id
    expect(() => compareAnswers(mine, withBlocks({ ...blockRow(), slot: '7', price_p50: '2' }), 'peer')).toThrow(/blocks 7 price_p50: chainlens 1, peer 2/);
    expect(() => compareAnswers(mine, withBlocks({ ...blockRow(), slot: '7', std_dev: 1.5001 }), 'peer')).toThrow(/std_dev/);
    expect(() => compareAnswers(mine, withBlocks({ ...blockRow(), slot: '7', position_p50: 1.5 * (1 + 1e-7) }), 'peer')).not.toThrow();
  });

  it('refuses a missing row or field', () => {
    const mine = withBlocks({ ...blockRow(), slot: '7' });
    expect(() => compareAnswers(mine, withBlocks(), 'peer')).toThrow(/0 rows of blocks/);
    expect(() => compareAnswers(mine, withBlocks({ ...blockRow(), slot: '8' }), 'peer')).toThrow(/no blocks row 7/);
    const { fee_p99: _dropped, ...partial }: Row = { ...blockRow(), slot: '7' };
    expect(() => compareAnswers(mine, withBlocks(partial), 'peer')).toThrow(/lack fee_p99/);
  });
});

describe('mostActive', () => {
  it('orders pairs by trades, then base and quote', () => {
    const candle = (base: string, quote: string, n: number) => ({ base, quote, data_points: String(n) });
    const top = mostActive([candle('B', 'Q', 3), candle('A', 'Q', 2), candle('A', 'Q', 1), candle('C', 'Q', 5), candle('A', 'P', 3)]);
    expect(top.map((p) => `${p.base}/${p.quote}`)).toEqual(['C/Q', 'A/P', 'A/Q', 'B/Q']);
  });
});

describe('attribute', () => {
  it('gives self time to the stage of the nearest frame with a known path, leaving idle time out', () => {
    const frame = (url: string, functionName = 'f') => ({ url, functionName, lineNumber: -1, columnNumber: -1 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('', '(root)'), children: [2, 5, 6] },
        { id: 2, callFrame: frame('file:///repo/dist/src/ingest/files/parquet.js'), children: [3] },
        { id: 3, callFrame: frame('wasm://wasm/abc', 'decode_page'), children: [4] },
        { id: 4, callFrame: frame('file:///repo/dist/src/store/duckdb.js') },
        { id: 5, callFrame: frame('', '(idle)') },
        { id: 6, callFrame: frame('', '(garbage collector)') },
      ],
      samples: [3, 3, 4, 5, 6, 2],
      timeDeltas: [0, 1000, 1000, 2000, 5000, 3000, 4000],
    };
    expect(attribute(profile)).toEqual({ decode: 6, validate: 0, compute: 0, store: 2, other: 3 });
  });

  it('gives a frame in a bundle the stage of the module its source map says it came from', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'chainlens-stages-'));
    try {
      // one bundle line, two segments: column 0 from ingest/validate.js, column 10 from market/engine.js
      const bundle = path.join(dir, 'dist', 'bundle', 'index.js');
      await mkdir(path.dirname(bundle), { recursive: true });
      await writeFile(bundle, 'function a(){}function b(){}\n');
      await writeFile(`${bundle}.map`, JSON.stringify({
        version: 3, sources: ['../src/ingest/validate.js', '../src/market/engine.js'], names: [], mappings: 'AAAA,UCAA',
      }));
      const url = pathToFileURL(bundle).href;
      const at = (id: number, columnNumber: number) => ({ id, callFrame: { url, functionName: 'f', lineNumber: 0, columnNumber } });
      const profile = {
        nodes: [{ id: 1, callFrame: { url: '', functionName: '(root)', lineNumber: -1, columnNumber: -1 }, children: [2, 3] }, at(2, 3), at(3, 12)],
        samples: [2, 3, 3],
        timeDeltas: [0, 1000, 2000, 4000],
      };
      expect(attribute(profile)).toEqual({ decode: 0, validate: 1, compute: 6, store: 0, other: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a chainlens run that does not finish', () => {
  it('is told by its error lines, and its missed targets are explained by them', () => {
    const stderr = '/x/duckdb-node-blocking.cjs:1\nthrow new UnboundTypeError(`${e}: `+t.map(getTypeName)); // minified source\n    ^\n\nError: Out of Memory Error: failed to allocate data of size 16.0 KiB (3.1 GiB/3.1 GiB used)\n    at x (y.js:1:1)\nNode.js v20\n';
    const reason = errorLines(stderr);
    expect(reason).toBe('Error: Out of Memory Error: failed to allocate data of size 16.0 KiB (3.1 GiB/3.1 GiB used)');
    const figure = {
      id: 'e2e.one-hour', family: 'e2e', title: 't', size: '8,750 blocks, 12,700,000 transactions (mainnet profile)',
      work: { unit: 'blocks', count: 8750 }, subjects: [], skipped: [], notes: [], targets: [],
      values: { chainlens_failed: `did not finish: ${reason}`, 'duckdb-native_wall_s': 9.5, 'duckdb-native_peak_rss_mib': 900, polars_wall_s: 20, polars_peak_rss_mib: 700 },
    } as unknown as Figure;
    const target = { text: 'load', kind: 'min-rate', required: 1000, measured: null, met: false } as const;
    const { why, close } = explainMiss(figure, target)!;
    expect(why).toContain('did not finish: Error: Out of Memory');
    expect(why).toContain('what the store holds of this dump (8,750 blocks, 12,700,000 transactions) did not fit');
    expect(why).toContain('Native DuckDB answered in 9.5 s at 900 MiB and Polars in 20.0 s at 700 MiB');
    expect(close).toContain('columnar engine');
  });
});
