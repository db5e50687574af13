import { U64_MAX } from '../../schema/amounts.js';

/** A decoding problem located at a field path inside one block (`transactions[3].meta.fee`). */
export class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** Reads a u64 (JSON number, exact bigint, or decimal string) as a bigint; anything else, or above 2^64 - 1, throws FieldError. */
export function toU64(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  const n = typeof value === 'bigint' && value >= 0n ? value : typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : undefined;
  if (n === undefined) throw new FieldError(field, `expected a non-negative integer, got ${describe(value)}`);
  if (n > U64_MAX) throw new FieldError(field, `${n} is out of range for u64 (max ${U64_MAX})`);
  return n;
}

/** A short description of a JSON value for error messages. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing (missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? value.slice(0, 40) + '...' : value}"`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
