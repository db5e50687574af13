/**
 * Exact floating-point sums that can also subtract: Shewchuk's non-overlapping partials (the
 * algorithm behind Python's math.fsum). The partials always hold the exact sum of everything added,
 * so removing a value (adding its negation) loses nothing to cancellation, and `value()` is the
 * correctly rounded exact sum: it depends only on the multiset of values in the sum, never on the
 * order they came in or on what was added and removed before. That is what lets a trailing window
 * slide by adding its newest block and removing its oldest, and still answer bit for bit what a
 * fresh sum over the same blocks gives (live and as-of answers agree exactly).
 *
 * Values must be finite and their sums must not overflow; products go through `addProduct`, which
 * adds the exact product a x b as two floats (Dekker's two-product), exact unless a partial
 * product underflows (below about 1e-290: never for prices, volumes and durations).
 */

const SPLITTER = 134_217_729; // 2^27 + 1 (Veltkamp split of a 53-bit significand)

/** An exact running sum of floats; see the module comment. */
export class ExactSum {
  /** Non-overlapping partials, increasing in magnitude, none zero. */
  #partials: number[] = [];

  /** Adds x (finite). */
  add(x: number): void {
    const p = this.#partials;
    let kept = 0;
    for (let k = 0; k < p.length; k++) {
      let y = p[k]!;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) p[kept++] = lo;
      x = hi;
    }
    if (x !== 0) p[kept++] = x;
    if (p.length !== kept) p.length = kept;
  }

  /** Removes x: adds -x. */
  subtract(x: number): void {
    this.add(-x);
  }

  /** Adds the exact product a x b (or subtracts it with sign -1). */
  addProduct(a: number, b: number, sign: 1 | -1 = 1): void {
    const product = a * b;
    let c = SPLITTER * a;
    const aHi = c - (c - a);
    const aLo = a - aHi;
    c = SPLITTER * b;
    const bHi = c - (c - b);
    const bLo = b - bHi;
    const error = aLo * bLo - (((product - aHi * bHi) - aLo * bHi) - aHi * bLo);
    this.add(sign * product);
    if (error !== 0) this.add(sign * error);
  }

  /** Adds everything in `other` (exactly). */
  addAll(other: ExactSum): void {
    for (const x of other.#partials) this.add(x);
  }

  /** Makes this sum equal to `other`. */
  assign(other: ExactSum): void {
    this.#partials = other.#partials.slice();
  }

  /** A copy with the same exact value. */
  clone(): ExactSum {
    const copy = new ExactSum();
    copy.#partials = this.#partials.slice();
    return copy;
  }

  /** Forgets everything: the sum is 0. */
  clear(): void {
    this.#partials.length = 0;
  }

  /** The exact sum correctly rounded to the nearest float (ties to even); 0 for an empty sum. */
  value(): number {
    const p = this.#partials;
    let n = p.length;
    if (n === 0) return 0;
    let hi = p[--n]!;
    let lo = 0;
    // add from the top down until the sum becomes inexact
    while (n > 0) {
      const x = hi;
      const y = p[--n]!;
      hi = x + y;
      lo = y - (hi - x);
      if (lo !== 0) break;
    }
    // half-even rounding across partials: a remainder below the halfway point that has the same sign
    // as the next partial pushes the result one unit away when it lands exactly on a tie
    if (n > 0 && ((lo < 0 && p[n - 1]! < 0) || (lo > 0 && p[n - 1]! > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
    return hi;
  }
}
