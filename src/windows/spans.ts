/**
 * A set of integer ranges [from, to), kept sorted and merged: which blocks of a lazily computed
 * history are done. `missing` lists the parts of a range still to compute.
 */
export class Spans {
  /** Sorted, disjoint, non-adjacent ranges. */
  #ranges: [number, number][] = [];

  /** Marks [from, to) as covered. */
  add(from: number, to: number): void {
    if (to <= from) return;
    const kept: [number, number][] = [];
    for (const [a, b] of this.#ranges) {
      if (b < from || a > to) kept.push([a, b]);
      else (from = Math.min(from, a)), (to = Math.max(to, b));
    }
    kept.push([from, to]);
    this.#ranges = kept.sort((x, y) => x[0] - y[0]);
  }

  /** The parts of [from, to) not covered, in order. */
  missing(from: number, to: number): [number, number][] {
    const out: [number, number][] = [];
    let at = from;
    for (const [a, b] of this.#ranges) {
      if (b <= at) continue;
      if (a >= to) break;
      if (a > at) out.push([at, a]);
      at = Math.max(at, b);
    }
    if (at < to) out.push([at, to]);
    return out;
  }

  /** Whether [from, to) is covered entirely. */
  covers(from: number, to: number): boolean {
    return this.missing(from, to).length === 0;
  }
}
