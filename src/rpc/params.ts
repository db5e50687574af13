/**
 * Parameter specs as data, and their strict validation (DESIGN.md 4): unknown names, wrong types,
 * a window outside the method's set, a limit outside its range and a malformed mint are -32602,
 * never clamped or ignored.
 */
import { isPublicKey } from '../schema/base58.js';
import { parseTimeParam, windowNanos } from '../schema/time.js';
import { cut, echo } from './echo.js';
import { invalidParam } from './errors.js';

/** A mint filter parameter. */
export interface MintSpec { kind: 'mint'; doc: string }
/** A time parameter. */
export interface TimeSpec { kind: 'time'; doc: string; queryOnly?: boolean }
/** A window parameter: one of `values` (their literal union `W`); required when `D` (the default) is undefined. */
export interface WindowSpec<W extends string = string, D extends W | undefined = W | undefined> {
  kind: 'window'; values: readonly W[]; default: D; doc: string;
}
/** A limit parameter. */
export interface LimitSpec { kind: 'limit'; min: number; max: number; default: number; doc: string }
/** An integer parameter other than the limit. */
export interface IntegerSpec { kind: 'integer'; min: number; max: number; default: number; doc: string }
/** A boolean parameter. */
export interface FlagSpec { kind: 'flag'; default: boolean; doc: string }
/** A list of distinct public keys, `min` to `max` of them. */
export interface KeysSpec { kind: 'keys'; min: number; max: number; doc: string }
/** A text parameter (decoded by the method). */
export interface TextSpec { kind: 'text'; doc: string }

/** One parameter of a method. */
export type ParamSpec = MintSpec | TimeSpec | WindowSpec | LimitSpec | IntegerSpec | FlagSpec | KeysSpec | TextSpec;

/** Validated parameters, as method handlers receive them. Times are nanoseconds. */
export interface Params {
  /** Maximum data points to return (always set: the method's default when omitted). */
  limit: number;
  mint?: string;
  base?: string;
  quote?: string;
  window?: string;
  /** Window length in nanoseconds, set with `window`. */
  windowNs?: bigint;
  from?: bigint;
  to?: bigint;
  /** As-of time: answer as the engine would have right after the newest block with timestamp < at. */
  at?: bigint;
  /** Local fee markets: the accounts, or a serialized transaction whose write-locked accounts are used. */
  accounts?: string[];
  transaction?: string;
  lookback_slots?: number;
  include_vote?: boolean;
}

/** A mint filter (base58 32-byte public key). */
export const mint = (doc: string): MintSpec => ({ kind: 'mint', doc });

/** A time: Unix seconds (number or numeric string) or ISO-8601. */
export const time = (doc: string, queryOnly = false): TimeSpec => ({ kind: 'time', doc, queryOnly });

/** A window name from `values`; required unless a default is given. */
export function window<const W extends string>(values: readonly W[]): WindowSpec<W, undefined>;
export function window<const W extends string, const D extends W>(values: readonly W[], defaultValue: D): WindowSpec<W, D>;
export function window(values: readonly string[], defaultValue?: string): WindowSpec {
  return {
    kind: 'window',
    values,
    default: defaultValue,
    doc: `one of ${values.join(', ')}${defaultValue ? ` (default ${defaultValue})` : ' (required)'}`,
  };
}

/** A limit in [min, max] with a default (seed section 8). Query only. */
export const limit = (min: number, max: number, defaultValue: number): LimitSpec => ({
  kind: 'limit',
  min,
  max,
  default: defaultValue,
  doc: `integer ${min}-${max}, default ${defaultValue}`,
});

/** An integer in [min, max] with a default. */
export const integer = (min: number, max: number, defaultValue: number, doc: string): IntegerSpec => ({
  kind: 'integer', min, max, default: defaultValue, doc: `${doc}: integer ${min}-${max}, default ${defaultValue}`,
});

/** true or false, with a default. */
export const flag = (defaultValue: boolean, doc: string): FlagSpec => ({ kind: 'flag', default: defaultValue, doc: `${doc}: boolean, default ${defaultValue}` });

/** A list of `min` to `max` distinct base58 public keys. */
export const keys = (min: number, max: number, doc: string): KeysSpec => ({
  kind: 'keys', min, max, doc: `${doc}: ${min}-${max} distinct base58 public keys`,
});

/** A text. */
export const text = (doc: string): TextSpec => ({ kind: 'text', doc });

/** The as-of parameter every method accepts (backtesting extension, DESIGN.md 5). */
export const AT_PARAM: TimeSpec = time('as-of time: answer as of just after the newest block before it');

/** An integer param in [min, max] (its default when absent); -32602 otherwise. */
function boundedInteger(name: string, value: unknown, spec: LimitSpec | IntegerSpec): number {
  const n = value === undefined ? spec.default : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < spec.min || n > spec.max) {
    throw invalidParam(name, `must be an integer from ${spec.min} to ${spec.max}, got ${echo(n)}`, { min: spec.min, max: spec.max });
  }
  return n;
}

/** Validates raw params against the specs; throws an RpcError (-32602) naming the first bad one. */
export function validateParams(specs: Readonly<Record<string, ParamSpec>>, raw: unknown): Params {
  if (raw === undefined) raw = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalidParam('params', 'must be an object of named parameters', Object.keys(specs));
  }
  const input = raw as Record<string, unknown>;
  for (const name of Object.keys(input)) {
    if (!Object.hasOwn(specs, name)) {
      throw invalidParam(cut(name), `unknown parameter; allowed: ${Object.keys(specs).join(', ')}`, Object.keys(specs));
    }
  }
  const out: Params = { limit: 0 };
  const fields = out as unknown as Record<string, unknown>;
  for (const [name, spec] of Object.entries(specs)) {
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    switch (spec.kind) {
      case 'limit':
        out.limit = boundedInteger(name, value, spec);
        break;
      case 'window': {
        const chosen = value === undefined ? spec.default : value;
        if (chosen === undefined) throw invalidParam(name, `is required; one of ${spec.values.join(', ')}`, spec.values);
        if (typeof chosen !== 'string' || !spec.values.includes(chosen)) {
          throw invalidParam(name, `must be one of ${spec.values.join(', ')}, got ${echo(chosen)}`, spec.values);
        }
        out.window = chosen;
        out.windowNs = windowNanos(chosen);
        break;
      }
      case 'integer':
        fields[name] = boundedInteger(name, value, spec);
        break;
      case 'flag': {
        const b = value === undefined ? spec.default : value;
        if (typeof b !== 'boolean') throw invalidParam(name, `must be true or false, got ${echo(b)}`);
        fields[name] = b;
        break;
      }
      case 'keys': {
        if (value === undefined) break;
        if (!Array.isArray(value) || value.length < spec.min || value.length > spec.max) {
          throw invalidParam(name, `must be an array of ${spec.min} to ${spec.max} base58 public keys, got ${echo(value)}`, { min: spec.min, max: spec.max });
        }
        const seen = new Set<string>();
        for (const [i, key] of value.entries()) {
          if (!isPublicKey(key)) throw invalidParam(name, `entry ${i} must be a base58 public key (32 bytes), got ${echo(key)}`);
          if (seen.has(key)) throw invalidParam(name, `entry ${i} repeats ${key}; the keys must be distinct`);
          seen.add(key);
        }
        fields[name] = value;
        break;
      }
      case 'text':
        if (value === undefined) break;
        if (typeof value !== 'string') throw invalidParam(name, `must be a string, got ${echo(value)}`);
        fields[name] = value;
        break;
      case 'mint':
        if (value === undefined) break;
        if (!isPublicKey(value)) throw invalidParam(name, `must be a base58 public key (32 bytes), got ${echo(value)}`);
        fields[name] = value;
        break;
      case 'time': {
        if (value === undefined) break;
        const ns = parseTimeParam(value);
        if (ns === undefined) {
          throw invalidParam(name, `must be Unix seconds or an ISO-8601 date-time, got ${echo(value)}`);
        }
        fields[name] = ns;
        break;
      }
    }
  }
  return out;
}
