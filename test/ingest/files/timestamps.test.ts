import { Field, makeData, RecordBatch, Schema, Struct, Table, TimestampMillisecond, TimestampSecond, Int64, Float64, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { ExactNanos, InvalidValue, normalizeValue } from '../../../src/ingest/validate.js';
import { readAll, utf8 } from './fixtures.js';

const NS = 1_710_441_678_250_000_000n; // 2024-03-14T18:41:18.25Z

describe('timestamp forms', () => {
  const forms: [string, unknown][] = [
    ['ISO-8601 Z', '2024-03-14T18:41:18.25Z'],
    ['ISO-8601 with 9 digits', '2024-03-14T18:41:18.250000000Z'],
    ['ISO-8601 with an offset', '2024-03-14T20:41:18.250+02:00'],
    ['ISO-8601 without a zone (UTC)', '2024-03-14 18:41:18.25'],
    ['Unix seconds, fractional number', 1710441678.25],
    ['Unix seconds, fractional string', '1710441678.25'],
    ['int64 nanoseconds, bigint', NS],
    ['int64 nanoseconds, decimal string', '1710441678250000000'],
    ['an exact-nanoseconds value (typed column)', new ExactNanos(NS)],
  ];
  for (const [label, value] of forms) {
    it(`${label} -> ${NS}`, () => expect(normalizeValue('ns', value)).toBe(NS));
  }

  it('whole Unix seconds as a number, a string or a bigint', () => {
    for (const value of [1710441678, '1710441678', 1710441678n]) expect(normalizeValue('ns', value)).toBe(1_710_441_678_000_000_000n);
  });

  it('the rule: an integer of absolute value >= 10^15 is nanoseconds, below it seconds', () => {
    expect(normalizeValue('ns', 9_000_000_000)).toBe(9_000_000_000n * 1_000_000_000n); // seconds, in 2255
    expect(normalizeValue('ns', 999_999_999_999_999)).toBeInstanceOf(InvalidValue); // seconds, beyond int64 ns
    expect(normalizeValue('ns', 1_000_000_000_000_000)).toBe(1_000_000_000_000_000n);
    expect(normalizeValue('ns', -1_000_000_000_000_000n)).toBe(-1_000_000_000_000_000n);
    expect(normalizeValue('ns', 0)).toBe(0n);
  });

  it('refuses what is not a time, and times outside int64 nanoseconds', () => {
    for (const value of ['yesterday', '14/03/2024', '2024-02-30T00:00:00Z', '', '.', true, {}, 9.3e18, Infinity]) {
      expect(normalizeValue('ns', value), String(value)).toBeInstanceOf(InvalidValue);
    }
    expect(normalizeValue('ns', '9999999999999')).toBeInstanceOf(InvalidValue); // seconds beyond year 2262
  });

  it('every form gives the same value through NDJSON and CSV files', async () => {
    const textForms = ['"2024-03-14T18:41:18.25Z"', '1710441678.25', '"1710441678.25"', '1710441678250000000', '"1710441678250000000"', '"2024-03-14T20:41:18.25+02:00"'];
    const ndjson = textForms.map((form, i) => `{"slot":${i},"timestamp":${form}}`).join('\n');
    const fromNdjson = await readAll<'blocks'>({ name: 'blocks.ndjson', bytes: utf8(ndjson) });
    expect(fromNdjson.rejections).toEqual([]);
    expect(fromNdjson.rows.map((row) => row.timestamp)).toEqual(textForms.map(() => NS));

    const csv = ['slot,timestamp', ...textForms.map((form, i) => `${i},${form.replaceAll('"', '')}`)].join('\n');
    const fromCsv = await readAll<'blocks'>({ name: 'blocks.csv', bytes: utf8(csv) });
    expect(fromCsv.rejections).toEqual([]);
    expect(fromCsv.rows.map((row) => row.timestamp)).toEqual(textForms.map(() => NS));
  });

  it('Arrow columns: Timestamp of any unit, Int64 seconds or nanoseconds, Float64 seconds, ISO strings', async () => {
    const cases: [string, Field, ReturnType<typeof makeData>][] = [
      ['ms', new Field('timestamp', new TimestampMillisecond()), makeData({ type: new TimestampMillisecond(), length: 1, data: new BigInt64Array([1710441678250n]) })],
      ['s', new Field('timestamp', new TimestampSecond()), makeData({ type: new TimestampSecond(), length: 1, data: new BigInt64Array([1710441678n]) })],
      ['int64 ns', new Field('timestamp', new Int64()), vectorFromArray([NS], new Int64()).data[0]],
      ['int64 s', new Field('timestamp', new Int64()), vectorFromArray([1710441678n], new Int64()).data[0]],
      ['float64 s', new Field('timestamp', new Float64()), vectorFromArray([1710441678.25], new Float64()).data[0]],
      ['utf8', new Field('timestamp', new Utf8()), vectorFromArray(['2024-03-14T18:41:18.25Z'], new Utf8()).data[0]],
    ];
    for (const [label, field, data] of cases) {
      const schema = new Schema([new Field('slot', new Int64()), field]);
      const slot = vectorFromArray([1n], new Int64()).data[0];
      const table = new Table([new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children: [slot, data] }))]);
      const { rows, rejections } = await readAll<'blocks'>({ name: 'blocks.arrows', bytes: tableToIPC(table, 'stream') });
      expect(rejections, label).toEqual([]);
      const seconds = label === 's' || label === 'int64 s';
      expect(rows[0].timestamp, label).toBe(seconds ? 1_710_441_678_000_000_000n : NS);
    }
  });
});
