import { align16 as align, growTo } from '../grow';
import { Status } from '../status';

export { Status } from '../status';

/**
 * The wire text of floats (src/kernels/float-text.ts): each value of a batch of f64 as the shortest
 * decimal that reads back as the same float, written out without exponent ("0.00000015",
 * "1000000000000000000000"), byte for byte what `String(x)` rewritten as a plain decimal gives.
 *
 * The digits are Ryu's (Ulf Adams, PLDI 2018): the value and the two midpoints to its neighbours,
 * integers times 2^e2, are scaled by a power of ten with one 64x128-bit product (by 2^k / 5^q or
 * 5^i / 2^k held to 125 bits; the midpoints' products differ from the value's by the entry or
 * twice it); digits are then dropped while the interval still holds a point of the coarser grid,
 * and the last one is rounded. Integers below 2^53 and decimals of at most 15 digits (most prices
 * and amounts) are found by shorter ways first.
 * float32 (`format32`) keeps what `encodeFloat32` did with toPrecision: the fewest of 1..9 digits,
 * found by the same bisection, that round half up to a decimal in the float32's interval.
 *
 * Memory: TABLES (written once by the caller: Ryu's tables are computed, not stored here) | input
 * f64[n] | ends u32[n] (value i is output[ends[i - 1]..ends[i]), empty for NaN and ±Infinity) |
 * output bytes, MAX_TEXT a value.
 */

/** Bits of a table entry: 2^(bitlen(5^q) - 1 + 125) / 5^q rounded down plus one, and 5^i's top 125 bits. */
const POW5_BITS: i32 = 125;
const INV_ENTRIES: i32 = 342;
const POW_ENTRIES: i32 = 326;
/** Entry q: low u64, high u64. INV for e2 >= 0 (q <= 341), POW for e2 < 0 (i <= 325). */
const TABLES = memory.data((INV_ENTRIES + POW_ENTRIES) * 16, 16);
const INV = TABLES;
const POW = TABLES + <usize>INV_ENTRIES * 16;

/** 10^0..10^19. */
const POW10 = memory.data(20 * 8, 16);
for (let i = 0, p: u64 = 1; i < 20; i++, p *= 10) store<u64>(POW10 + 8 * i, p);
/** 10^-8..10^22 as doubles, entry n + 8 for 10^n: exact from 10^0 up, the nearest below (a division). */
const POW10F = memory.data(31 * 8, 16);
for (let n = 0, p: f64 = 1; n <= 22; n++, p *= 10) {
  store<f64>(POW10F + 8 * (n + 8), p);
  if (n >= 1 && n <= 8) store<f64>(POW10F + 8 * (8 - n), 1 / p);
}

/**
 * Bytes of one text at most: '-', "0.", 323 zeros (the exponent of 5e-324) and 17 digits. A value
 * that small has fewer digits, but this bound needs no proof.
 */
const MAX_TEXT: usize = 1 + 2 + 323 + 17;

let base: usize = 0;
let capacity: usize = 0;
let inputAt: usize = 0;
let endsAt: usize = 0;
let outputAt: usize = 0;

/** Makes room for `n` values and their texts. Growing detaches every JS view of the memory. */
export function reserve(n: u32): Status {
  if (base == 0) base = align(<usize>__heap_base);
  if (<usize>n <= capacity && inputAt != 0) return Status.OK;
  const c = max(<usize>n, capacity + (capacity >> 1));
  const e = align(base + c * 8);
  const o = align(e + c * 4);
  if (!growTo(<u64>(o + c * MAX_TEXT + 32))) return Status.OUT_OF_MEMORY; // 32: a text's overrun
  capacity = c;
  inputAt = base;
  endsAt = e;
  outputAt = o;
  return Status.OK;
}

export function tablesPtr(): usize { return TABLES; }
export function invEntries(): i32 { return INV_ENTRIES; }
export function powEntries(): i32 { return POW_ENTRIES; }
export function inputPtr(): usize { return inputAt; }
export function endsPtr(): usize { return endsAt; }
export function outputPtr(): usize { return outputAt; }

// ---- Arithmetic ----

/** The high 64 bits of a * b (wasm has no 64x64->128 multiply: four 32x32 products). */
@inline function mulHigh(a: u64, b: u64): u64 {
  const a0 = a & 0xffffffff;
  const a1 = a >> 32;
  const b0 = b & 0xffffffff;
  const b1 = b >> 32;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const mid = ((a0 * b0) >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);
  return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/** Bit length of 5^e: floor(e log2 5) + 1 (the multiplier is exact for e <= 3528). */
@inline function pow5Bits(e: i32): i32 {
  return <i32>((<u32>e * 1217359) >> 19) + 1;
}

/** floor(e log10 2), for 0 <= e <= 1650. */
@inline function log10Pow2(e: i32): i32 {
  return <i32>((<u32>e * 78913) >> 18);
}

/** floor(e log10 5), for 0 <= e <= 2620. */
@inline function log10Pow5(e: i32): i32 {
  return <i32>((<u32>e * 732923) >> 20);
}

/** Whether 5^q divides x (x < 2^58 < 5^25). */
function multipleOfPow5(x: u64, q: i32): bool {
  if (q > 24) return false;
  let n = 0;
  while (x % 5 == 0) {
    x /= 5;
    n++;
  }
  return n >= q;
}

/** Decimal digits of v > 0. */
@inline function decimalLength(v: u64): i32 {
  // 1233 / 4096 ~ log10(2): t is the length or one less
  const t = ((64 - <i32>clz(v)) * 1233) >> 12;
  return t + <i32>(v >= load<u64>(POW10 + (<usize>t << 3)));
}

// ---- The decimal interval ----

// What `interval` finds (globals: a function returns one value): the value and its interval's ends,
// truncated at the scale 10^e10; whether vr and vm are exact there (vmExact only when the ends
// count), and the bit below vr (floor(2 vr_exact) is odd: what is dropped is at least a half).
let vr: u64 = 0;
let vp: u64 = 0;
let vm: u64 = 0;
let e10: i32 = 0;
let vrExact = false;
let vmExact = false;
let vrHalf: u64 = 0;

/**
 * Scales the value mv * 2^e2 (mv = 4 * m2) and the midpoints to its neighbours, mp = mv + 2 and
 * mm = mv - 1 - mmShift (the gap below a power of two is half as wide), by 10^-e10, where 10^e10 is
 * at most a tenth of 2^e2 (one digit finer than the spacing of floats) or the value is exact at it.
 * vp is lowered by one when it is an excluded end exactly: every point <= vp is then inside.
 */
function interval(m2: u64, e2: i32, mmShift: u64, acceptBounds: bool): void {
  const mv = m2 << 2;
  const mp = mv + 2;
  const mm = mv - 1 - mmShift;
  let rExact = false;
  let mExact = false;
  let excludedTop = false;
  let entry: usize;
  let j: i32; // the product's shift
  if (e2 >= 0) {
    // x 2^e2 / 10^q = x 2^(e2 - q) / 5^q: times INV[q] ~ 2^k / 5^q, shifted right by k + q - e2
    const q = log10Pow2(e2) - <i32>(e2 > 3);
    entry = INV + (<usize>q << 4);
    j = POW5_BITS + pow5Bits(q) - 1 + q - e2;
    e10 = q;
    // exact where 5^q divides x; of three numbers less than 5 apart at most one does
    if (mv % 5 == 0) rExact = multipleOfPow5(mv, q);
    else if (acceptBounds) mExact = multipleOfPow5(mm, q);
    else excludedTop = multipleOfPow5(mp, q);
  } else {
    // x 2^e2 / 10^(q + e2) = x 5^i / 2^q with i = -e2 - q: times POW[i] ~ 5^i / 2^k, shifted by q - k
    const q = log10Pow5(-e2) - <i32>(-e2 > 1);
    const i = -e2 - q;
    entry = POW + (<usize>i << 4);
    j = q - pow5Bits(i) + POW5_BITS;
    e10 = q + e2;
    // exact where 2^q divides x
    rExact = <i32>ctz(mv) >= q;
    if (acceptBounds) mExact = <i32>ctz(mm) >= q;
    else excludedTop = <i32>ctz(mp) >= q;
  }
  // P = mv * T, all 192 bits (p2 p1 p0); mp * T and mm * T are P + 2T and P - T or P - 2T
  const low = load<u64>(entry);
  const high = load<u64>(entry, 8);
  const p0 = mv * low;
  const highLow = mv * high;
  const p1 = mulHigh(mv, low) + highLow;
  const p2 = mulHigh(mv, high) + <u64>(p1 < highLow);
  // 2T < 2^127: t1 t0
  const t0 = low << 1;
  const t1 = (high << 1) | (low >> 63);
  // P + 2T
  const a0 = p0 + t0;
  const a1c = p1 + t1;
  const a1 = a1c + <u64>(a0 < t0);
  const a2 = p2 + <u64>(a1c < t1) + <u64>(a1 < a1c);
  // P - T (mmShift 0) or P - 2T
  const d0 = mmShift != 0 ? t0 : low;
  const d1 = mmShift != 0 ? t1 : high;
  const b0 = p0 - d0;
  const b1c = p1 - d1;
  const b1 = b1c - <u64>(p0 < d0);
  const b2 = p2 - <u64>(p1 < d1) - <u64>(b1c < <u64>(p0 < d0));
  // floor(X / 2^j) for 64 < j < 128: the top two words shifted right by s = j - 64
  const s = <u64>(j - 64);
  vr = (p2 << (64 - s)) | (p1 >> s);
  vp = ((a2 << (64 - s)) | (a1 >> s)) - <u64>excludedTop;
  vm = (b2 << (64 - s)) | (b1 >> s);
  vrHalf = (p1 >> (s - 1)) & 1; // floor(2 mv T / 2^j)'s last bit, for float32
  vrExact = rExact;
  vmExact = mExact;
}

/**
 * The shortest digits in the interval, nearest the value (half to even, or half up: see format32):
 * drops digits while the coarser grid still has a point in (vm, vp]; adds the dropped digits to e10.
 */
function shortest(acceptBounds: bool, halfUp: bool): u64 {
  let r = vr;
  let p = vp;
  let m = vm;
  let removed = 0;
  if (vmExact || vrExact) {
    // rare: an exact end may itself be the output, and an exact value may lie halfway
    let mExact = vmExact;
    let rExact = vrExact;
    let last: u64 = 0;
    while (true) {
      const pTen = p / 10;
      const mTen = m / 10;
      if (pTen <= mTen) break;
      const rTen = r / 10;
      mExact = mExact && m - mTen * 10 == 0;
      rExact = rExact && last == 0;
      last = r - rTen * 10;
      r = rTen;
      p = pTen;
      m = mTen;
      removed++;
    }
    if (mExact) {
      // the lower end is a point of this grid and valid: drop its trailing zeros too
      while (true) {
        const mTen = m / 10;
        if (m - mTen * 10 != 0) break;
        const rTen = r / 10;
        rExact = rExact && last == 0;
        last = r - rTen * 10;
        r = rTen;
        m = mTen;
        removed++;
      }
    }
    if (rExact && last == 5 && (r & 1) == 0 && !halfUp) last = 4; // exactly halfway: keep the even digit
    e10 += removed;
    return r + <u64>((r == m && (!acceptBounds || !mExact)) || last >= 5);
  }
  // common: neither end counts as a point, no halfway case, and only the last dropped digit rounds.
  // The most digits that can go, as 8s then 4, 2 and 1 (if k can go so can fewer). Written out, not
  // a loop over a table of powers: a division by a constant compiles to a multiply, by a load it does not.
  let up = false;
  while (true) {
    const pk = p / 100000000;
    const mk = m / 100000000;
    if (pk <= mk) break;
    const rk = r / 100000000;
    up = r - rk * 100000000 >= 50000000;
    r = rk;
    p = pk;
    m = mk;
    removed += 8;
  }
  let pk = p / 10000;
  let mk = m / 10000;
  if (pk > mk) {
    const rk = r / 10000;
    up = r - rk * 10000 >= 5000;
    r = rk;
    p = pk;
    m = mk;
    removed += 4;
  }
  pk = p / 100;
  mk = m / 100;
  if (pk > mk) {
    const rk = r / 100;
    up = r - rk * 100 >= 50;
    r = rk;
    p = pk;
    m = mk;
    removed += 2;
  }
  pk = p / 10;
  mk = m / 10;
  if (pk > mk) {
    const rk = r / 10;
    up = r - rk * 10 >= 5;
    r = rk;
    m = mk;
    removed++;
  }
  e10 += removed;
  return r + <u64>(r == m || up);
}

// ---- float32, as toPrecision found it ----

/**
 * A decimal read as a double and then as a float32 rounds twice: when the double is a float32
 * midpoint, the second rounding goes to the even neighbour whichever side the decimal was on. Of
 * all decimals of at most 9 digits within half a double ulp of a float32 midpoint (an exhaustive
 * search found 130), one is a candidate that changes an answer: 7.038531e-26, just below the
 * midpoint of these two float32 values (their bits without the sign). It reads back as the even
 * one (ABOVE), for which it is valid, not as BELOW: 1 for ABOVE, -1 for BELOW, else 0.
 */
const DOUBLE_ROUNDED_BELOW: u32 = 0x15ae43fd;
const DOUBLE_ROUNDED_ABOVE: u32 = 0x15ae43fe;
let readsAsEven = 0;

/** Per p = 1..9 digits fewer than the value has at its scale: the value rounded half up to p digits. */
const CANDIDATES = memory.data(10 * 8, 16);

/**
 * encodeFloat32's digits: p = 9 at first, then a bisection over 1..9 for the fewest that round-trip
 * (toPrecision(p), read as a double, then as a float32, is the value): a decimal round-trips when
 * it is inside the float32's interval, its ends included for an even value, but for the one double
 * rounding above. The bisection is kept as it was, though the test need not be monotonic at a power
 * of two (the interval is narrower below).
 */
function shortest32(acceptBounds: bool): u64 {
  const length = decimalLength(vr);
  // every p < length, dropping one digit at a time: the candidate (half up: on the last dropped
  // digit alone) and whether it is in the interval, as bit p of `valid`
  let valid: u32 = 0;
  let r = vr;
  let p = vp;
  let m = vm;
  let mExact = vmExact;
  for (let digits = length - 1; digits >= 1; digits--) {
    const rTen = r / 10;
    const last = r - rTen * 10;
    const pTen = p / 10;
    const mTen = m / 10;
    mExact = mExact && m - mTen * 10 == 0;
    r = rTen;
    p = pTen;
    m = mTen;
    if (digits > 9) continue;
    const c = r + <u64>(last >= 5);
    store<u64>(CANDIDATES + (<usize>digits << 3), c);
    let ok = c <= p && (c > m || (c == m && acceptBounds && mExact));
    if (readsAsEven != 0 && c == 7038531 && e10 + length - digits == -32) ok = readsAsEven > 0;
    valid |= <u32>ok << digits;
  }
  // p >= length digits: a grid at least as fine as 10^e10 (<= 2^e2 / 10, or the value is exact
  // there) has its point nearest the value well inside the interval
  valid |= ~((<u32>1 << length) - 1);
  let lo = 1;
  let hi = 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((valid >> mid) & 1) hi = mid;
    else lo = mid + 1;
  }
  // hi is the last p that passed, or 9 (never tested)
  let found: u64;
  if (hi < length) {
    found = load<u64>(CANDIDATES + (<usize>hi << 3));
    e10 += length - hi;
  } else {
    found = hi == length ? vr + vrHalf : vr;
  }
  // a carry ("0.0996" to "0.10") leaves zeros that String(Number(text)) drops
  while (found % 10 == 0) {
    found /= 10;
    e10++;
  }
  return found;
}

// ---- Text ----

/** The 8 digits of n < 10^8 as ASCII, the first in the low byte: lanes of a u64 divided in parallel. */
@inline function eightDigits(n: u32): u64 {
  const high = n / 10000;
  // 32-bit lanes: the first four digits' number, the last four's
  const x = <u64>high | (<u64>(n - high * 10000) << 32);
  // each lane / 100 (n * 5243 >> 19 is exact below 43699), then 16-bit lanes: quotient, remainder
  const hundreds = ((x * 5243) >> 19) & 0x0000007f0000007f;
  const y = hundreds | ((x - hundreds * 100) << 16);
  // each 16-bit lane / 10 (n * 103 >> 10 is exact below 179), then bytes: tens, units
  const tens = ((y * 103) >> 10) & 0x000f000f000f000f;
  return (tens | ((y - tens * 10) << 8)) + 0x3030303030303030;
}

/** Digits of a value: up to 24, zero-padded, end at SCRATCH + 24; copies read 32 bytes from the first. */
const SCRATCH = memory.data(64, 16);

/** Writes v's digits (v < 10^24: an output has at most 17) ending at SCRATCH + 24, 8 at a time. */
@inline function scratchDigits(v: u64): void {
  if (v < 100000000) {
    store<u64>(SCRATCH, eightDigits(<u32>v), 16);
    return;
  }
  const high = v / 100000000;
  store<u64>(SCRATCH, eightDigits(<u32>(v - high * 100000000)), 16);
  if (high < 100000000) {
    store<u64>(SCRATCH, eightDigits(<u32>high), 8);
    return;
  }
  const top = high / 100000000;
  store<u64>(SCRATCH, eightDigits(<u32>(high - top * 100000000)), 8);
  store<u64>(SCRATCH, eightDigits(<u32>top), 0);
}

/** Copies 32 bytes, of which the first few are wanted: the rest is overwritten or past the text. */
@inline function copy32(to: usize, from: usize): void {
  v128.store(to, v128.load(from));
  v128.store(to, v128.load(from, 16), 16);
}

/** Writes n >= 0 '0's at p, 8 at a time: up to 7 more are written past them. */
@inline function zeros(p: usize, n: usize): void {
  const end = p + n;
  for (; p < end; p += 8) store<u64>(p, 0x3030303030303030);
}

/**
 * Writes sign and digits * 10^exponent as a plain decimal at `out`; returns its end. Up to 32 bytes
 * past the end are scribbled on (the next text overwrites them; the output has room).
 */
function writePlain(out: usize, negative: bool, digits: u64, exponent: i32): usize {
  if (negative) store<u8>(out++, 45);
  const length = decimalLength(digits);
  const point = length + exponent; // digits before the decimal point
  scratchDigits(digits);
  const first = SCRATCH + 24 - <usize>length;
  if (exponent >= 0) {
    // an integer: the digits, then zeros
    copy32(out, first);
    zeros(out + <usize>length, <usize>exponent);
    return out + <usize>point;
  }
  if (point <= 0) {
    // below 1: "0." and zeros, then the digits
    store<u16>(out, 0x2e30); // "0."
    zeros(out + 2, <usize>-point);
    copy32(out + 2 + <usize>-point, first);
    return out + 2 + <usize>(length - point);
  }
  // the point among the digits
  copy32(out, first);
  store<u8>(out + <usize>point, 46);
  copy32(out + <usize>point + 1, first + <usize>point);
  return out + <usize>length + 1;
}

// What `shortDecimal` finds: digits * 10^exponent.
let shortDigits: u64 = 0;
let shortExponent: i32 = 0;

/**
 * Whether a in [1e-8, 1e15) is a decimal of at most 15 significant digits: the only one that short
 * that reads as a (two such decimals never read as one double: DBL_DIG is 15), so the shortest and
 * what String writes. Scaled to 15 digits by an exact power of ten (j <= 22), the value is within
 * 1/4 of that decimal's integer (the value's and the product's rounding, each below 2^-53 of 10^15),
 * and the correctly rounded k / 10^j is a exactly when the decimal k 10^-j reads as a (ties to even
 * alike). Most prices and amounts are such; a value of 16 or 17 digits costs one division more.
 */
function shortDecimal(a: f64, exponent: i32): bool {
  // a's decimal exponent, or one more (never less): a >= 2^(exponent - 1023), and 10^(e + 1) as a double
  // is at most one ulp off the power
  let e = ((exponent - 1023) * 78913) >> 18;
  e += <i32>(a >= load<f64>(POW10F + (<usize>(e + 9) << 3)));
  const j = 14 - e;
  const scale = load<f64>(POW10F + (<usize>(j + 8) << 3));
  const k = nearest(a * scale);
  if (k / scale != a) return false;
  // drop the trailing zeros: at most 14 of 15 digits
  let digits = <u64>k;
  let exponent10 = -j;
  if (digits % 100000000 == 0) {
    digits /= 100000000;
    exponent10 += 8;
  }
  if (digits % 10000 == 0) {
    digits /= 10000;
    exponent10 += 4;
  }
  if (digits % 100 == 0) {
    digits /= 100;
    exponent10 += 2;
  }
  if (digits % 10 == 0) {
    digits /= 10;
    exponent10++;
  }
  shortDigits = digits;
  shortExponent = exponent10;
  return true;
}

/** Texts of input values 0..n-1 as float64; returns the bytes written (u32.MAX_VALUE past the capacity). */
export function format64(n: u32): u32 {
  if (<usize>n > capacity) return u32.MAX_VALUE;
  let out = outputAt;
  for (let i: usize = 0; i < <usize>n; i++) {
    const x = load<f64>(inputAt + (i << 3));
    const bits = reinterpret<u64>(x);
    const mantissa = bits & 0xfffffffffffff;
    const exponent = <i32>((bits >> 52) & 0x7ff);
    if (exponent == 0x7ff) {
      // NaN, ±Infinity: no text
    } else if (exponent == 0 && mantissa == 0) {
      store<u8>(out++, 48); // ±0: "0"
    } else if (abs(x) < 9007199254740992.0 && <f64><u64>abs(x) == abs(x)) {
      // an integer below 2^53: its own digits (any decimal of fewer digits is at least 1 away)
      out = writePlain(out, x < 0, <u64>abs(x), 0);
    } else if (abs(x) >= 1e-8 && abs(x) < 1e15 && shortDecimal(abs(x), exponent)) {
      out = writePlain(out, x < 0, shortDigits, shortExponent);
    } else {
      // subnormals share the smallest exponent; the implicit bit otherwise
      const m2 = exponent == 0 ? mantissa : mantissa | (<u64>1 << 52);
      const e2 = (exponent == 0 ? 1 : exponent) - 1075 - 2;
      const acceptBounds = (m2 & 1) == 0;
      interval(m2, e2, <u64>(mantissa != 0 || exponent <= 1), acceptBounds);
      const digits = shortest(acceptBounds, false);
      out = writePlain(out, <i64>bits < 0, digits, e10);
    }
    store<u32>(endsAt + (i << 2), <u32>(out - outputAt));
  }
  return <u32>(out - outputAt);
}

/**
 * Texts of input values 0..n-1 rounded to float32 (beyond its range: Infinity, no text); returns
 * the bytes written (u32.MAX_VALUE past the capacity). The double tables serve: the products are
 * those of float64 values' scaling at the same e2, for numerators under 2^55 as there.
 */
export function format32(n: u32): u32 {
  if (<usize>n > capacity) return u32.MAX_VALUE;
  let out = outputAt;
  for (let i: usize = 0; i < <usize>n; i++) {
    const f = <f32>load<f64>(inputAt + (i << 3));
    const bits = reinterpret<u32>(f);
    const mantissa = <u64>(bits & 0x7fffff);
    const exponent = <i32>((bits >> 23) & 0xff);
    if (exponent == 0xff) {
      // NaN, ±Infinity: no text
    } else if (exponent == 0 && mantissa == 0) {
      store<u8>(out++, 48);
    } else if (abs(f) < <f32>16777216.0 && <f32><u32>abs(f) == abs(f)) {
      // an integer below 2^24: its own digits, as for float64
      out = writePlain(out, f < 0, <u64><u32>abs(f), 0);
    } else {
      const m2 = exponent == 0 ? mantissa : mantissa | (<u64>1 << 23);
      const e2 = (exponent == 0 ? 1 : exponent) - 150 - 2;
      const acceptBounds = (m2 & 1) == 0;
      const magnitude = bits & 0x7fffffff;
      readsAsEven = magnitude == DOUBLE_ROUNDED_ABOVE ? 1 : magnitude == DOUBLE_ROUNDED_BELOW ? -1 : 0;
      const mmShift = <u64>(mantissa != 0 || exponent <= 1);
      interval(m2, e2, mmShift, acceptBounds);
      // Where the interval is symmetric, if a decimal of p digits is in it, so is the value rounded
      // to p digits (no farther from the value; at an end both are, included alike): the fewest
      // digits that pass are Ryu's shortest length, rounded half up, and the bisection finds them.
      // Below a power of two the gap is narrower, and there is the double rounding: replayed.
      const digits = mmShift != 0 && readsAsEven == 0 ? shortest(acceptBounds, true) : shortest32(acceptBounds);
      out = writePlain(out, <i32>bits < 0, digits, e10);
    }
    store<u32>(endsAt + (i << 2), <u32>(out - outputAt));
  }
  return <u32>(out - outputAt);
}
