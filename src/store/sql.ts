/**
 * SQL literal helpers: the only way a value enters SQL text. DuckDB-WASM's prepared statements
 * take parameters as JSON, which cannot carry a u64 above 2^53 exactly, so values are inlined as
 * literals built here instead.
 */

/** A value that can be written as a SQL literal. */
export type SqlValue = string | number | bigint | boolean | null;

/** A double-quoted identifier ("index", "timestamp" and other keywords are valid column names). */
export function sqlIdent(name: string): string {
  if (name.length === 0 || name.includes('\0')) throw new TypeError(`invalid SQL identifier ${JSON.stringify(name)}`);
  return `"${name.replaceAll('"', '""')}"`;
}

/** A single-quoted string literal. */
export function sqlString(value: string): string {
  if (value.includes('\0')) throw new TypeError('a SQL string literal cannot contain a NUL character');
  return `'${value.replaceAll("'", "''")}'`;
}

/** An exact integer literal: a bigint, or a number that is a safe integer. */
export function sqlInteger(value: bigint | number): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw new RangeError(`${value} is not a safe integer; pass a bigint`);
  }
  return String(value);
}

/** A literal for any supported value; finite non-integer numbers are written as DOUBLE literals. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  switch (typeof value) {
    case 'string':
      return sqlString(value);
    case 'bigint':
      return sqlInteger(value);
    case 'boolean':
      return value ? 'TRUE' : 'FALSE';
    default:
      if (Number.isInteger(value)) return sqlInteger(value);
      if (!Number.isFinite(value)) throw new RangeError(`${value} has no SQL literal`);
      return `${String(value)}::DOUBLE`;
  }
}
