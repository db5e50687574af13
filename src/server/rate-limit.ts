/**
 * The demo token's rate limit: a token bucket per token. A request takes one unit; the bucket holds
 * at most `burst` units and refills at `perSecond`, so a client may burst, then goes at the rate.
 */

/** The rate of a demo token (the server option `demoRate`). */
export interface Rate {
  /** Requests per second, sustained. */
  perSecond: number;
  /** Requests allowed at once after a quiet spell. */
  burst: number;
}

export const DEFAULT_DEMO_RATE: Rate = { perSecond: 10, burst: 20 };

/** Token buckets, one per key (a token's id). */
export class RateLimiter {
  readonly #buckets = new Map<string, { units: number; at: number }>();

  constructor(
    readonly rate: Rate,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(rate.perSecond > 0) || !(rate.burst >= 1)) throw new RangeError(`a rate needs perSecond > 0 and burst >= 1, got ${JSON.stringify(rate)}`);
  }

  /** Takes one unit for `key`: 0 when granted, else the milliseconds until one is there. */
  take(key: string): number {
    const now = this.now();
    const bucket = this.#buckets.get(key) ?? { units: this.rate.burst, at: now };
    bucket.units = Math.min(this.rate.burst, bucket.units + ((now - bucket.at) / 1000) * this.rate.perSecond);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.units >= 1) {
      bucket.units -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.units) / this.rate.perSecond) * 1000);
  }
}
