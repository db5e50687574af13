/**
 * The JSON wire encoding (DESIGN.md 4): every number a string, u64 exact, floats as the shortest
 * round-trip decimal without exponent, timestamps with 9 fraction digits, ISO-8601 durations.
 * The record encoder is derived from the schema's field lists; it formats the floats of a whole
 * list of records at once, in WebAssembly (src/kernels/float-text.ts: V8's String of a double
 * costs ~250 ns, most of a record's encoding).
 */
import { float32Texts, float64Texts } from '../kernels/float-text.js';
import { NEVER_NULL_FIELDS, type RecordOf, type RecordSchema } from './records.js';
import type { WireType } from './wire.js';

const NEVER_NULL: ReadonlySet<string> = new Set(NEVER_NULL_FIELDS);

const NS_PER_SECOND = 1_000_000_000n;

/** One value's text through the batch formatter (the batch path is `encodeRecords`'). */
function oneText(format: typeof float64Texts, value: number | null): string | null {
  if (value === null) return null;
  single[0] = value;
  format(single, 1, singleText);
  return singleText[0]!;
}
const single = new Float64Array(1);
const singleText: (string | null)[] = [null];

/** Shortest decimal that round-trips to the same float64, without exponent; null for NaN/Infinity. */
export const encodeFloat64 = (value: number | null): string | null => oneText(float64Texts, value);

/** Shortest decimal that round-trips to the same float32 (the value is first rounded to float32); null for NaN/Infinity and beyond float32. */
export const encodeFloat32 = (value: number | null): string | null => oneText(float32Texts, value);

/** A pure function of one argument with its results for recent arguments kept: bounded, cleared whole when full. */
function memoized<K, V>(limit: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= limit) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}

/** Exact decimal string of an integer value; throws on a non-integer so that no f64 rounding hides. */
export function encodeInteger(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (!Number.isSafeInteger(value)) throw new RangeError(`not an exact integer: ${value}`);
  return String(value);
}

/** The date and time of the last second encoded: the records of a block or a candle share it. */
let lastSecond: { seconds: bigint; text: string } | undefined;

/**
 * Nanoseconds since the Unix epoch as ISO-8601 UTC with exactly 9 fraction digits and Z. The texts
 * of recent timestamps are kept: the points a block pushes (every pair's candles, volume, windows)
 * share a few, the block's time and their windows' bounds.
 */
export const encodeTimestamp: (ns: bigint) => string = memoized(1 << 12, (ns: bigint) => timestampText(ns));

function timestampText(ns: bigint): string {
  let seconds = ns / NS_PER_SECOND;
  let fraction = ns - seconds * NS_PER_SECOND;
  if (fraction < 0n) {
    fraction += NS_PER_SECOND;
    seconds -= 1n;
  }
  if (lastSecond?.seconds !== seconds) {
    // YYYY-MM-DDTHH:MM:SS of .toISOString()'s YYYY-MM-DDTHH:MM:SS.mmmZ
    lastSecond = { seconds, text: new Date(Number(seconds) * 1000).toISOString().slice(0, 19) };
  }
  return `${lastSecond.text}.${fraction.toString().padStart(9, '0')}Z`;
}

/**
 * Nanoseconds as an ISO-8601 duration: PT[nH][nM][n[.f]S], hours never folded into days, PT0S for 0.
 * The texts of recent durations are kept: most are window lengths.
 */
export const encodeDuration: (ns: bigint) => string = memoized(1 << 12, (ns: bigint) => durationText(ns));

function durationText(ns: bigint): string {
  const sign = ns < 0n ? '-' : '';
  let rest = ns < 0n ? -ns : ns;
  const hours = rest / (3600n * NS_PER_SECOND);
  rest %= 3600n * NS_PER_SECOND;
  const minutes = rest / (60n * NS_PER_SECOND);
  rest %= 60n * NS_PER_SECOND;
  let out = '';
  if (hours) out += `${hours}H`;
  if (minutes) out += `${minutes}M`;
  if (rest) {
    const whole = rest / NS_PER_SECOND;
    const fraction = (rest % NS_PER_SECOND).toString().padStart(9, '0').replace(/0+$/, '');
    out += fraction ? `${whole}.${fraction}S` : `${whole}S`;
  }
  return `${sign}PT${out || '0S'}`;
}

/** JSON value of one field. */
export type WireValue = string | number | boolean | null;

const integer = (value: unknown): WireValue => (value === null ? null : encodeInteger(value as number | bigint));
const asIs = (value: unknown): WireValue => value as WireValue;

type FloatType = 'Float4' | 'Float8';
/** The encoder of each wire type but the floats, which `encodeRecords` formats a batch at a time. */
const VALUE_ENCODERS: Readonly<Record<Exclude<WireType, FloatType>, (value: never) => WireValue>> = {
  id: asIs,
  Utf8: asIs,
  Boolean: asIs,
  Uint1: integer,
  Uint4: integer,
  Uint8: integer,
  Int8: integer,
  DateTime: encodeTimestamp,
  Duration: encodeDuration,
};

/** A record encoded for the wire: field name to JSON value, in schema order. */
export type WireRecord = Record<string, WireValue>;

/** A schema's fields as the encoder walks them. */
interface RecordEncoder {
  readonly names: readonly string[];
  /** The encoder of each field; undefined for a float, whose text comes from its batch. */
  readonly encoders: readonly (((value: never) => WireValue) | undefined)[];
  /** Of each field, whether it is a Float8 (else a Float4, where it has no encoder). */
  readonly wide: readonly boolean[];
  readonly neverNull: readonly boolean[];
  /** The fields of each float width, in schema order. */
  readonly float64: readonly number[];
  readonly float32: readonly number[];
  /**
   * Every field null, in schema order: a record starts as a copy of it, so that every record of a
   * schema has one shape from the start (adding its fields one by one to an empty object cost about
   * a fifth of a record's encoding in V8).
   */
  readonly template: WireRecord;
}

const recordEncoders = new WeakMap<RecordSchema, RecordEncoder>();

function recordEncoder(schema: RecordSchema): RecordEncoder {
  let encoder = recordEncoders.get(schema);
  if (!encoder) {
    const indices = (type: WireType) => schema.fields.flatMap(([, t], i) => (t === type ? [i] : []));
    encoder = {
      names: schema.fields.map(([name]) => name),
      encoders: schema.fields.map(([, type]) => (type === 'Float8' || type === 'Float4' ? undefined : VALUE_ENCODERS[type])),
      neverNull: schema.fields.map(([name]) => NEVER_NULL.has(name)),
      wide: schema.fields.map(([, type]) => type === 'Float8'),
      float64: indices('Float8'),
      float32: indices('Float4'),
      template: Object.fromEntries(schema.fields.map(([name]) => [name, null])),
    };
    recordEncoders.set(schema, encoder);
  }
  return encoder;
}

/** The floats of a batch of records, one width's fields after another's. */
let floats = new Float64Array(1 << 12);

/** Encodes records by their schema; a missing field is a bug and throws rather than emit a placeholder. */
export function encodeRecords<S extends RecordSchema>(schema: S, values: readonly RecordOf<S>[]): WireRecord[] {
  const { names, encoders, wide, neverNull, float64, float32, template } = recordEncoder(schema);
  const n = values.length;
  const count64 = n * float64.length;
  const count = count64 + n * float32.length;
  if (floats.length < count) floats = new Float64Array(Math.max(count, floats.length * 2));
  const missing = (i: number) => new Error(`${schema.name}.${names[i]} is missing`);
  // the floats first, so that each width's texts are made in one call (null, like NaN, has the text null)
  let at = 0;
  for (const fields of [float64, float32]) {
    for (let r = 0; r < n; r++) {
      const source = values[r] as Record<string, unknown>;
      for (const i of fields) {
        const field = source[names[i]!];
        if (field === undefined) throw missing(i);
        floats[at++] = field === null ? NaN : (field as number);
      }
    }
  }
  const floatTexts: (string | null)[] = []; // filled in order: a packed array
  float64Texts(floats, count64, floatTexts, 0);
  float32Texts(floats.subarray(count64), count - count64, floatTexts, count64);
  const out: WireRecord[] = new Array(n);
  let next64 = 0;
  let next32 = count64;
  for (let r = 0; r < n; r++) {
    const source = values[r] as Record<string, unknown>;
    const wire: WireRecord = { ...template };
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const encoder = encoders[i];
      let encoded: WireValue;
      if (encoder === undefined) encoded = floatTexts[wide[i] ? next64++ : next32++]!;
      else {
        const field = source[name];
        if (field === undefined) throw missing(i);
        encoded = encoder(field as never);
      }
      if (encoded === null && neverNull[i]) throw new Error(`${schema.name}.${name} is null, which its wire type rules out`);
      wire[name] = encoded;
    }
    out[r] = wire;
  }
  return out;
}

/** Encodes one record by its schema (`encodeRecords` of one). */
export function encodeRecord<S extends RecordSchema>(schema: S, value: RecordOf<S>): WireRecord {
  return encodeRecords(schema, [value])[0]!;
}
