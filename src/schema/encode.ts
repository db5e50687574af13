/**
 * The JSON wire encoding (DESIGN.md 4): every number a string, u64 exact, floats as the shortest
 * round-trip decimal without exponent, timestamps with 9 fraction digits, ISO-8601 durations.
 * The record encoder is derived from the schema's field lists.
 */
import { NEVER_NULL_FIELDS, type RecordOf, type RecordSchema } from './records.js';
import type { WireType } from './wire.js';

const NEVER_NULL: ReadonlySet<string> = new Set(NEVER_NULL_FIELDS);

const NS_PER_SECOND = 1_000_000_000n;

/** Rewrites a JS number string (maybe in exponent form, e.g. "1.5e-7") as a plain decimal. */
function plainDecimal(text: string): string {
  const e = text.indexOf('e');
  if (e < 0) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exponent = Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const digits = mantissa.replace('.', '');
  const pointAt = (dot < 0 ? mantissa.length : dot) + exponent; // position of the decimal point in `digits`
  let out: string;
  if (pointAt <= 0) out = `0.${'0'.repeat(-pointAt)}${digits}`;
  else if (pointAt >= digits.length) out = digits + '0'.repeat(pointAt - digits.length);
  else out = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return negative ? `-${out}` : out;
}

/** Shortest decimal that round-trips to the same float64, without exponent; null for NaN/Infinity. */
export function encodeFloat64(value: number | null): string | null {
  if (value === null || !Number.isFinite(value)) return null;
  if (Object.is(value, -0)) return '0';
  return plainDecimal(String(value));
}

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

/**
 * Texts of float32 values encoded lately: the live answers (the newest block's fees, its windows)
 * are asked again and again, and the search below costs several toPrecision calls a value.
 */
const float32Text = memoized(1 << 16, (f: number) => shortestFloat32(f));

/** Shortest decimal that round-trips to the same float32 (the value is first rounded to float32). */
export function encodeFloat32(value: number | null): string | null {
  if (value === null || !Number.isFinite(value)) return null;
  const f = Math.fround(value);
  if (!Number.isFinite(f)) return null;
  if (f === 0) return '0';
  return float32Text(f);
}

/**
 * The fewest significant digits that round-trip, found by bisection over 1..9 (9 always do): if p
 * digits round-trip so do p + 1, as the nearest point of the finer grid of decimals is at least as
 * near. Most values need 6 to 9, which counting up from 1 reached after 6 to 9 toPrecision calls.
 */
function shortestFloat32(f: number): string {
  let lo = 1;
  let hi = 9;
  let found = Number(f.toPrecision(9));
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const candidate = Number(f.toPrecision(mid));
    if (Math.fround(candidate) === f) (hi = mid), (found = candidate);
    else lo = mid + 1;
  }
  return plainDecimal(String(found));
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

/** The encoder of each wire type. */
const VALUE_ENCODERS: Readonly<Record<WireType, (value: never) => WireValue>> = {
  id: asIs,
  Utf8: asIs,
  Boolean: asIs,
  Uint1: integer,
  Uint4: integer,
  Uint8: integer,
  Int8: integer,
  Float4: encodeFloat32,
  Float8: encodeFloat64,
  DateTime: encodeTimestamp,
  Duration: encodeDuration,
};

/** A record encoded for the wire: field name to JSON value, in schema order. */
export type WireRecord = Record<string, WireValue>;

/** A schema's fields as the encoder walks them. */
interface RecordEncoder {
  readonly names: readonly string[];
  readonly encoders: readonly ((value: never) => WireValue)[];
  readonly neverNull: readonly boolean[];
  /**
   * Every field null, in schema order: a record starts as a copy of it, so that every record of a
   * schema has one shape from the start (adding its fields one by one to an empty object cost about
   * a fifth of a record's encoding in V8; its floats' shortest texts are most of the rest).
   */
  readonly template: WireRecord;
}

const recordEncoders = new WeakMap<RecordSchema, RecordEncoder>();

function recordEncoder(schema: RecordSchema): RecordEncoder {
  let encoder = recordEncoders.get(schema);
  if (!encoder) {
    encoder = {
      names: schema.fields.map(([name]) => name),
      encoders: schema.fields.map(([, type]) => VALUE_ENCODERS[type]),
      neverNull: schema.fields.map(([name]) => NEVER_NULL.has(name)),
      template: Object.fromEntries(schema.fields.map(([name]) => [name, null])),
    };
    recordEncoders.set(schema, encoder);
  }
  return encoder;
}

/** Encodes a record by its schema; a missing field is a bug and throws rather than emit a placeholder. */
export function encodeRecord<S extends RecordSchema>(schema: S, value: RecordOf<S>): WireRecord {
  const { names, encoders, neverNull, template } = recordEncoder(schema);
  const source = value as Record<string, unknown>;
  const out: WireRecord = { ...template };
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const field = source[name];
    if (field === undefined) throw new Error(`${schema.name}.${name} is missing`);
    const encoded = encoders[i]!(field as never);
    if (encoded === null && neverNull[i]) throw new Error(`${schema.name}.${name} is null, which its wire type rules out`);
    out[name] = encoded;
  }
  return out;
}
