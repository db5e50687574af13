/** The end-to-end family's pure parts: the answers' comparison, the most active pairs, the stage attribution. */
import { describe, expect, it } from 'vitest';
import { compareAnswers, mostActive, type Answers, type Row } from '../../bench/e2e/answers.js';
import { BlockFees } from '../../src/schema/records.js';
import { attribute } from '../../bench/e2e/stages.js';

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
    const { fee_p99: _dropped, ...partial } = { ...blockRow(), slot: '7' };
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
    const frame = (url: string, functionName = 'f') => ({ url, functionName });
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
});
