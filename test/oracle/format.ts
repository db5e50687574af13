/**
 * The wire forms of DESIGN.md 4, written for the oracles without the engine's encoder: integers
 * as exact decimal strings, floats as the shortest round-tripping decimal without exponent (float64,
 * or float32 for Float4 fields), ISO-8601 timestamps with 9 fraction digits from a civil calendar
 * of our own, ISO-8601 durations with hours never folded into days.
 */

const NS_PER_SECOND = 1_000_000_000n;
const NS_PER_DAY = 86_400n * NS_PER_SECOND;

/** The digits of a JS number string, written out without exponent ("1.5e-7" -> "0.00000015"). */
export function withoutExponent(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exp] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exp);
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + out.replace(/^0+(?=\d)/, '');
}

/** A float64 on the wire: shortest round-trip decimal (JS's own shortest form), null when not finite. */
export function wireF64(x: number | null): string | null {
  if (x === null || !Number.isFinite(x)) return null;
  return x === 0 ? '0' : withoutExponent(String(x));
}

/** A float32 on the wire: the value rounded to float32, then the fewest digits that read back to it. */
export function wireF32(x: number | null): string | null {
  if (x === null || !Number.isFinite(x)) return null;
  const single = Math.fround(x);
  if (!Number.isFinite(single)) return null;
  if (single === 0) return '0';
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(single.toPrecision(digits));
    if (Math.fround(candidate) === single) return withoutExponent(String(candidate));
  }
  throw new Error(`no float32 decimal for ${x}`);
}

/** An integer on the wire. */
export const wireInt = (x: bigint | number | null): string | null => (x === null ? null : BigInt(x).toString());

/** Days since 1970-01-01 to a proleptic Gregorian (year, month, day) (the era algorithm). */
function civilFromDays(days: bigint): [bigint, number, number] {
  const z = days + 719_468n;
  const era = (z >= 0n ? z : z - 146_096n) / 146_097n;
  const dayOfEra = z - era * 146_097n;
  const yearOfEra = (dayOfEra - dayOfEra / 1460n + dayOfEra / 36_524n - dayOfEra / 146_096n) / 365n;
  const dayOfYear = dayOfEra - (365n * yearOfEra + yearOfEra / 4n - yearOfEra / 100n);
  const mp = (5n * dayOfYear + 2n) / 153n;
  const day = Number(dayOfYear - (153n * mp + 2n) / 5n + 1n);
  const month = Number(mp < 10n ? mp + 3n : mp - 9n);
  return [yearOfEra + era * 400n + (month <= 2 ? 1n : 0n), month, day];
}

const pad = (x: bigint | number, width: number) => String(x).padStart(width, '0');

/** Nanoseconds since the epoch as 2024-03-14T18:41:18.000000000Z. */
export function wireTime(ns: bigint): string {
  let days = ns / NS_PER_DAY;
  let rest = ns % NS_PER_DAY;
  if (rest < 0n) {
    rest += NS_PER_DAY;
    days -= 1n;
  }
  const [y, m, d] = civilFromDays(days);
  const seconds = rest / NS_PER_SECOND;
  const hh = seconds / 3600n;
  const mm = (seconds % 3600n) / 60n;
  const ss = seconds % 60n;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(rest % NS_PER_SECOND, 9)}Z`;
}

/** Nanoseconds as PT[nH][nM][n[.f]S], fraction trimmed, PT0S for zero. */
export function wireDuration(ns: bigint): string {
  const hours = ns / (3600n * NS_PER_SECOND);
  const minutes = (ns / (60n * NS_PER_SECOND)) % 60n;
  const rest = ns % (60n * NS_PER_SECOND);
  let out = '';
  if (hours > 0n) out += `${hours}H`;
  if (minutes > 0n) out += `${minutes}M`;
  if (rest > 0n) {
    const fraction = pad(rest % NS_PER_SECOND, 9).replace(/0+$/, '');
    out += `${rest / NS_PER_SECOND}${fraction ? `.${fraction}` : ''}S`;
  }
  return `PT${out || '0S'}`;
}

/** A window name ("30s", "5m", "12h") in nanoseconds. */
export function windowLength(name: string): bigint {
  const unit = { s: 1n, m: 60n, h: 3600n }[name.slice(-1)];
  if (unit === undefined || !/^\d+[smh]$/.test(name)) throw new RangeError(`window ${name}`);
  return BigInt(name.slice(0, -1)) * unit * NS_PER_SECOND;
}

/** The start of the tumbling window of length w holding t (aligned to multiples of w since the epoch). */
export function windowFloor(t: bigint, w: bigint): bigint {
  const r = t % w;
  return t - (r < 0n ? r + w : r);
}

export const MARKET_WINDOWS = ['1s', '10s', '30s', '1m', '5m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '24h'];
export const FEE_WINDOWS = ['1m', '5m', '15m', '1h'];
export const RECO_WINDOWS = ['1s', '10s', '30s', '1m', '3m', '5m', '15m'];
