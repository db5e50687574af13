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

/** One parameter of a method. */
export type ParamSpec = MintSpec | TimeSpec | WindowSpec | LimitSpec;

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

/** The as-of parameter every method accepts (backtesting extension, DESIGN.md 5). */
export const AT_PARAM: TimeSpec = time('as-of time: answer as of just after the newest block before it');

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
        if (value === undefined) out.limit = spec.default;
        else if (typeof value !== 'number' || !Number.isInteger(value) || value < spec.min || value > spec.max) {
          throw invalidParam(name, `must be an integer from ${spec.min} to ${spec.max}, got ${echo(value)}`, { min: spec.min, max: spec.max });
        } else out.limit = value;
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
