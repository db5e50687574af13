import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { float32Texts, float64Texts } from '../../src/kernels/float-text.js';

const ZEROS = '0'.repeat(400);

/** A number's text from String, maybe with an exponent ("1.5e-7", "-1.2e+21"), as a plain decimal. */
function plain(text: string): string {
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const dot = text.indexOf('.');
  const first = sign.length;
  const digits = dot < 0 ? text.slice(first, e) : text.slice(first, dot) + text.slice(dot + 1, e);
  const point = (dot < 0 ? e : dot) - first + Number(text.slice(e + 1)); // digits before the decimal point
  if (point <= 0) return `${sign}0.${ZEROS.slice(0, -point)}${digits}`;
  if (point >= digits.length) return sign + digits + ZEROS.slice(0, point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The reference: String's shortest round-trip digits, written plainly. */
function reference64(x: number): string | null {
  if (!Number.isFinite(x)) return null;
  return x === 0 ? '0' : plain(String(x));
}

/** The reference for float32: the fewest digits of toPrecision that read back as the float32. */
function reference32(x: number): string | null {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return null;
  if (f === 0) return '0';
  for (let p = 1; p < 9; p++) {
    const candidate = Number(f.toPrecision(p));
    if (Math.fround(candidate) === f) return plain(String(candidate));
  }
  return plain(String(Number(f.toPrecision(9))));
}

/** The values whose kernel text differs from the reference's (the first 5). */
function mismatches(values: ArrayLike<number>, wide: boolean): string[] {
  const out: (string | null)[] = [];
  (wide ? float64Texts : float32Texts)(values, values.length, out);
  const reference = wide ? reference64 : reference32;
  const bad: string[] = [];
  for (let i = 0; i < values.length && bad.length < 5; i++) {
    const want = reference(values[i]!);
    if (out[i] !== want) bad.push(`${values[i]}: ${out[i]} (want ${want})`);
  }
  return bad;
}

/** sfc32: a seeded u32 generator. */
function generator(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (((c << 21) | (c >>> 11)) + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

/** n doubles of random bit patterns: every exponent, subnormals, NaNs and infinities. */
function bitPatterns(n: number, seed: number): Float64Array {
  const next = generator(seed);
  const values = new Float64Array(n);
  const words = new Uint32Array(values.buffer);
  for (let i = 0; i < words.length; i++) words[i] = next();
  return values;
}

/** n float32 values of random bit patterns, as doubles. */
function float32Patterns(n: number, seed: number): Float64Array {
  const next = generator(seed);
  const bits = new Uint32Array(n);
  for (let i = 0; i < n; i++) bits[i] = next();
  return Float64Array.from(new Float32Array(bits.buffer));
}

/** n values k / 10^j, k of 1 to `maxDigits` digits, j in 0..maxScale, either sign: prices and amounts. */
function decimals(n: number, seed: number, maxDigits: number, maxScale: number): Float64Array {
  const next = generator(seed);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const digits = 1 + (next() % maxDigits);
    const k = Math.floor(((next() * 2 ** 21 + (next() >>> 11)) / 2 ** 53) * 10 ** digits);
    values[i] = ((next() & 1) === 0 ? k : -k) / 10 ** (next() % (maxScale + 1));
  }
  return values;
}

/** n values of few bits (odd k < 2^13 times 2^e): exact decimals that may end halfway between two shortest. */
function fewBits(n: number, seed: number, exponents: number, lowest: number): Float64Array {
  const next = generator(seed);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = ((next() % 4096) * 2 + 1) * 2 ** ((next() % exponents) + lowest) * ((next() & 1) === 0 ? 1 : -1);
  return values;
}

/** n values k 10^j, k < 10^4: round numbers, some of them a float's interval's exact end. */
function roundNumbers(n: number, seed: number, exponents: number, lowest: number): Float64Array {
  const next = generator(seed);
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = (next() % 10_000) * 10 ** ((next() % exponents) + lowest);
  return values;
}

/** A double, one ulp below and above, and their negations. */
function around(x: number): number[] {
  const cell = new Float64Array([x]);
  const bits = new BigInt64Array(cell.buffer);
  const base = bits[0]!;
  const out: number[] = [];
  for (const delta of [0n, -1n, 1n]) {
    bits[0] = base + delta;
    out.push(cell[0]!, -cell[0]!);
  }
  return out;
}

/** A float32, one ulp below and above, and their negations, as doubles. */
function around32(x: number): number[] {
  const cell = new Float32Array([x]);
  const bits = new Int32Array(cell.buffer);
  const base = bits[0]!;
  const out: number[] = [];
  for (const delta of [0, -1, 1]) {
    bits[0] = base + delta;
    out.push(cell[0]!, -cell[0]!);
  }
  return out;
}

describe('float64Texts', () => {
  it('writes plain decimals, no exponent', () => {
    const cases: [number, string | null][] = [
      [0, '0'],
      [-0, '0'],
      [1, '1'],
      [-1, '-1'],
      [100, '100'],
      [123.45, '123.45'],
      [-0.001, '-0.001'],
      [1e21, '1000000000000000000000'],
      [1.5e-7, '0.00000015'],
      [2 ** 60, '1152921504606847000'],
      [0.1 + 0.2, '0.30000000000000004'],
      [9007199254740993, '9007199254740992'],
      [5e-324, `0.${'0'.repeat(323)}5`],
      [-2.2250738585072014e-308, `-0.${'0'.repeat(307)}22250738585072014`],
      [1.7976931348623157e308, `17976931348623157${'0'.repeat(292)}`],
      [NaN, null],
      [Infinity, null],
      [-Infinity, null],
    ];
    const out: (string | null)[] = [];
    float64Texts(cases.map(([x]) => x), cases.length, out);
    expect(out).toEqual(cases.map(([, text]) => text));
  });

  it('matches String on fast-check doubles', () => {
    const values = fc.sample(fc.double(), { numRuns: 200_000, seed: 1 });
    expect(mismatches(values, true)).toEqual([]);
  });

  it('matches String on random bit patterns across all exponents', () => {
    expect(mismatches(bitPatterns(1_000_000, 2), true)).toEqual([]);
  });

  it('matches String on decimals k / 10^j', () => {
    expect(mismatches(decimals(400_000, 3, 17, 22), true)).toEqual([]);
    expect(mismatches(decimals(200_000, 4, 9, 9), true)).toEqual([]);
  });

  it('matches String on integers up to 2^53 and beyond', () => {
    const next = generator(5);
    const values: number[] = [];
    for (let i = 0; i < 100_000; i++) values.push(Math.floor(next() * 2 ** (next() % 44)) * ((next() & 1) === 0 ? 1 : -1));
    for (let k = -64; k <= 64; k++) values.push(2 ** 53 + k * 2, 2 ** 53 - k, 2 ** 64 + k * 4096, 10 ** 21 + k * 262144);
    expect(mismatches(values, true)).toEqual([]);
  });

  it('matches String where the value is halfway or an end is exact', () => {
    expect(mismatches(fewBits(200_000, 13, 240, -120), true)).toEqual([]);
    expect(mismatches(roundNumbers(200_000, 14, 60, -20), true)).toEqual([]);
  });

  it('matches String at powers of 2 and 10, subnormals and their neighbours', () => {
    const values: number[] = [];
    for (let e = -1074; e <= 1023; e++) values.push(...around(2 ** e));
    for (let e = -323; e <= 308; e++) values.push(...around(Number(`1e${e}`)));
    values.push(...around(5e-324), ...around(1e-323), ...around(2.2250738585072014e-308), ...around(2.225073858507201e-308));
    values.push(...around(1.7976931348623157e308), ...around(9007199254740992), ...around(0.1), ...around(1e21));
    const next = generator(6);
    const subnormals = new Float64Array(100_000);
    const words = new Uint32Array(subnormals.buffer);
    for (let i = 0; i < subnormals.length; i++) {
      words[2 * i] = next();
      words[2 * i + 1] = (next() & 0x800fffff) >>> 0; // exponent 0
    }
    expect(mismatches(values, true)).toEqual([]);
    expect(mismatches(subnormals, true)).toEqual([]);
  });

  it('writes batches larger than the kernel\'s, from any ArrayLike, at an offset', () => {
    const values = bitPatterns(10_007, 7);
    const list = Array.from(values);
    const out: (string | null)[] = ['a', 'b', 'c'];
    float64Texts(list, 10_000, out, 3);
    expect(out.slice(0, 3)).toEqual(['a', 'b', 'c']);
    expect(out.length).toBe(10_003);
    expect(out.slice(3)).toEqual(list.slice(0, 10_000).map(reference64));
    const typed: (string | null)[] = new Array(10_010).fill('x');
    float64Texts(values, 9_000, typed, 1);
    expect(typed[0]).toBe('x');
    expect(typed.slice(1, 9_001)).toEqual(list.slice(0, 9_000).map(reference64));
    expect(typed.slice(9_001)).toEqual(new Array(1_009).fill('x'));
  });

  it('writes long texts in many chunks', () => {
    // ~330 bytes each: a batch's texts span many decoded chunks
    const values = Array.from({ length: 9_000 }, (_, i) => (i % 7 === 0 ? NaN : (i % 2 === 0 ? 1 : -1) * (i + 1) * 5e-324));
    expect(mismatches(values, true)).toEqual([]);
    expect(mismatches(values.map((x) => x * 2 ** 1000), true)).toEqual([]);
  });
});

describe('float32Texts', () => {
  it('writes the float32 value\'s shortest digits, plainly', () => {
    const cases: [number, string | null][] = [
      [0, '0'],
      [-0, '0'],
      [0.1, '0.1'],
      [-123.456, '-123.456'],
      [16777217, '16777216'],
      [3.4028235e38, `34028235${'0'.repeat(31)}`],
      [3.5e38, null], // beyond float32
      [1.4e-45, `0.${'0'.repeat(44)}1`],
      [1e-46, '0'],
      [NaN, null],
      [-Infinity, null],
      // read as a double, 7.038531e-26 is the midpoint of these two: Math.fround takes it to the even one
      [7.038530691851209e-26, `0.${'0'.repeat(25)}70385307`],
      [7.038531308148791e-26, `0.${'0'.repeat(25)}7038531`],
    ];
    const out: (string | null)[] = [];
    float32Texts(cases.map(([x]) => x), cases.length, out);
    expect(out).toEqual(cases.map(([, text]) => text));
  });

  it('matches the toPrecision search on fast-check floats and doubles', () => {
    expect(mismatches(fc.sample(fc.float(), { numRuns: 200_000, seed: 8 }), false)).toEqual([]);
    expect(mismatches(fc.sample(fc.double(), { numRuns: 50_000, seed: 9 }), false)).toEqual([]);
  });

  it('matches the toPrecision search on random float32 bit patterns and decimals', () => {
    expect(mismatches(float32Patterns(250_000, 10), false)).toEqual([]);
    expect(mismatches(decimals(120_000, 11, 9, 9), false)).toEqual([]);
  });

  it('matches the toPrecision search where the value is halfway or an end is exact', () => {
    expect(mismatches(fewBits(40_000, 15, 120, -80), false)).toEqual([]);
    expect(mismatches(roundNumbers(60_000, 16, 50, -20), false)).toEqual([]);
  });

  it('matches the toPrecision search at powers of 2 and 10, subnormals and their neighbours', () => {
    const values: number[] = [];
    for (let e = -149; e <= 127; e++) values.push(...around32(2 ** e));
    for (let e = -45; e <= 38; e++) values.push(...around32(Number(`1e${e}`)));
    values.push(...around32(1.17549435e-38), ...around32(3.4028235e38), ...around32(16777216));
    for (let m = 1; m < 2 ** 23; m += 997) values.push(m * 2 ** -149, -m * 2 ** -149); // subnormals
    expect(mismatches(values, false)).toEqual([]);
  });

  it('writes batches larger than the kernel\'s at an offset', () => {
    const values = float32Patterns(9_000, 12);
    const out: (string | null)[] = [null];
    float32Texts(values, 9_000, out, 1);
    expect(out[0]).toBe(null);
    expect(out.slice(1)).toEqual(Array.from(values, reference32));
  });
});
