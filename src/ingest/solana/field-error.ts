/** A decoding problem located at a field path inside one block (`transactions[3].meta.fee`). */
export class FieldError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** Reads a non-negative integer (JSON number, exact bigint, or decimal string) as a bigint. */
export function toU64(value: unknown, field: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new FieldError(field, `expected a non-negative integer, got ${describe(value)}`);
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
