/**
 * A small, fast, seeded pseudo-random generator for the synthetic market: sfc32 (Chris Doty-Humphrey's
 * Small Fast Counting generator, 128-bit state over u32 words) with Box-Muller normals. Only integer
 * operations on 32-bit words, so a seed gives the same stream on every platform and engine.
 */

const TWO_POW_32 = 4294967296;

/** Hashes a seed and a stream label to four u32 words (a cyrb128-style multiply-xorshift mix). */
export function hashSeed(seed: number | string, stream = ''): [number, number, number, number] {
  const text = `${String(seed)}\u0000${stream}`;
  let h1 = 0x6a09e667 | 0;
  let h2 = 0xbb67ae85 | 0;
  let h3 = 0x3c6ef372 | 0;
  let h4 = 0xa54ff53a | 0;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/**
 * A seeded random stream. `Rng.from(seed, stream)` gives independent streams for the parts of the
 * generator, so that (for example) changing the transaction count leaves the price walk unchanged.
 * The numbers `42` and `"42"` are the same seed.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spareNormal = 0;
  private hasSpare = false;

  /** A stream from four u32 state words (not all zero). */
  constructor(a: number, b: number, c: number, d: number) {
    this.a = this.b = this.c = this.d = 0;
    this.reset(a, b, c, d);
  }

  /** Starts the stream of four state words again (warmed up as a new one is). */
  reset(a: number, b: number, c: number, d: number): void {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
    this.hasSpare = false;
    for (let i = 0; i < 15; i++) this.u32();
  }

  /** The stream named `stream` of `seed`. */
  static from(seed: number | string, stream = ''): Rng {
    const [a, b, c, d] = hashSeed(seed, stream);
    return new Rng(a, b, c, d);
  }

  /** Next unsigned 32-bit integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in the open interval (0, 1), 32-bit resolution (never 0, so log() is safe). */
  float(): number {
    return (this.u32() + 0.5) / TWO_POW_32;
  }

  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.float();
  }

  /** Uniform integer in [0, n) for 0 < n <= 2^32. */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** Standard normal (Box-Muller; the second value of each pair is kept for the next call). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spareNormal;
    }
    const r = Math.sqrt(-2 * Math.log(this.float()));
    const theta = 2 * Math.PI * this.float();
    this.spareNormal = r * Math.sin(theta);
    this.hasSpare = true;
    return r * Math.cos(theta);
  }

  /** Log-normal with the given median and log-space standard deviation. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Poisson-distributed count (Knuth's product method below mean 30, a rounded normal above). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let k = 0;
    let p = this.float();
    while (p > limit) {
      k++;
      p *= this.float();
    }
    return k;
  }

  /** An index drawn from cumulative weights (as built by `cumulative`). */
  pick(cumulativeWeights: Float64Array): number {
    const u = this.float() * cumulativeWeights[cumulativeWeights.length - 1];
    let i = 0;
    while (cumulativeWeights[i] <= u) i++;
    return i;
  }
}

/** Running sums of `weights`, the table `Rng.pick` draws from. */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) out[i] = sum += weights[i];
  return out;
}
