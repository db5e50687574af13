/**
 * Time on the inside is int64 nanoseconds since the Unix epoch (bigint). This module turns the
 * outside forms (ISO-8601 strings, Unix seconds, window names like "5m") into it.
 */

export const NS_PER_SECOND = 1_000_000_000n;

/** Window value sets of the seed (section 1). */
export const MARKET_WINDOWS = ['1s', '10s', '30s', '1m', '5m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h'] as const;
export const FEE_WINDOWS = ['1m', '5m', '15m', '1h'] as const;
export const RECO_WINDOWS = ['1s', '10s', '30s', '1m', '3m', '5m', '15m'] as const;
export const TOP_WINDOWS = ['5m'] as const;

const UNIT_NS = { s: NS_PER_SECOND, m: 60n * NS_PER_SECOND, h: 3600n * NS_PER_SECOND, d: 86_400n * NS_PER_SECOND } as const;

/** Length in nanoseconds of a window name such as "10s", "5m" or "24h". */
export function windowNanos(window: string): bigint {
  let nanos = windowLengths.get(window);
  if (nanos === undefined) {
    const match = /^(\d+)([smh])$/.exec(window);
    if (!match) throw new RangeError(`not a window: ${window}`);
    nanos = BigInt(match[1]) * UNIT_NS[match[2] as keyof typeof UNIT_NS];
    if (windowLengths.size < 64) windowLengths.set(window, nanos);
  }
  return nanos;
}

/** Lengths of the window names met (a handful: every push of a block asks them again). */
const windowLengths = new Map<string, bigint>();

/** A duration option: a whole number of seconds, or a count with a unit ("90s", "15m", "2h", "1d"); nanoseconds. */
export function durationNanos(value: number | string): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`a duration in seconds must be a positive integer, got ${value}`);
    return BigInt(value) * NS_PER_SECOND;
  }
  const match = /^(\d+)([smhd])$/.exec(value.trim());
  if (!match || BigInt(match[1]) === 0n) throw new RangeError(`not a duration: '${value}' (expected e.g. 90s, 15m, 2h, 1d)`);
  return BigInt(match[1]) * UNIT_NS[match[2] as keyof typeof UNIT_NS];
}

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses an ISO-8601 date-time (UTC when no offset is given) to nanoseconds, keeping all 9 digits. */
export function parseIsoTimestamp(text: string): bigint | undefined {
  const m = ISO_PATTERN.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  if (Number.isNaN(ms) || check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.replace(':', '');
    offsetMinutes = (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5))) * (digits[0] === '-' ? -1 : 1);
  }
  return (BigInt(ms) - BigInt(offsetMinutes) * 60_000n) * 1_000_000n + BigInt(frac.padEnd(9, '0') || '0');
}

/** Parses a decimal number of seconds ("1710441678", "1710441678.25") exactly to nanoseconds. */
export function parseUnixSeconds(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d{1,9})\d*)?$/.exec(text.trim());
  if (!m) return undefined;
  const ns = BigInt(m[2]) * NS_PER_SECOND + BigInt((m[3] ?? '').padEnd(9, '0') || '0');
  return m[1] ? -ns : ns;
}

/**
 * A time parameter (`from`, `to`, `at`): Unix seconds as a JSON number or numeric string, or an
 * ISO-8601 string. Returns undefined when the value is neither.
 */
export function parseTimeParam(value: unknown): bigint | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    return Number.isInteger(value) ? BigInt(value) * NS_PER_SECOND : parseUnixSeconds(value.toFixed(9));
  }
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return parseUnixSeconds(value) ?? parseIsoTimestamp(value);
}
