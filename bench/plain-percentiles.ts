/**
 * Plain TypeScript baseline of the percentile kernel: the same method (exact nearest-rank
 * percentiles by most-significant-byte radix select, all ranks in one descent, only the buckets
 * holding a wanted rank scattered), written as ordinary code over two Uint32Arrays (the high and
 * low words of each u64), since a BigUint64Array element read makes a BigInt. The test oracle in
 * src/kernels/reference.ts sorts everything; it is measured beside this one, as the obvious code.
 */

/** Segments this short are finished by insertion sort. */
const SMALL = 24;

/** A reusable plain-TS percentile selector (its scratch buffers grow to the largest input). */
export function createPlainPercentiles(): (values: BigUint64Array, millis: Uint32Array) => BigUint64Array {
  let hiA = new Uint32Array(0);
  let loA = new Uint32Array(0);
  let hiB = new Uint32Array(0);
  let loB = new Uint32Array(0);
  const hist = Array.from({ length: 8 }, () => new Int32Array(256));
  const route = Array.from({ length: 8 }, () => new Int32Array(256));
  let ranks = new Float64Array(0);
  let slots = new Int32Array(0);
  let out = new BigUint64Array(0);

  const emit = (j: number, hi: number, lo: number) => {
    out[slots[j]!] = (BigInt(hi) << 32n) | BigInt(lo);
  };

  function select(fromA: boolean, at: number, len: number, base: number, rlo: number, rhi: number, depth: number): void {
    const sHi = fromA ? hiA : hiB;
    const sLo = fromA ? loA : loB;
    const dHi = fromA ? hiB : hiA;
    const dLo = fromA ? loB : loA;
    const end = at + len;
    if (len <= SMALL) {
      for (let i = at + 1; i < end; i++) {
        const h = sHi[i]!;
        const l = sLo[i]!;
        let j = i - 1;
        while (j >= at && (sHi[j]! > h || (sHi[j] === h && sLo[j]! > l))) {
          sHi[j + 1] = sHi[j]!;
          sLo[j + 1] = sLo[j]!;
          j--;
        }
        sHi[j + 1] = h;
        sLo[j + 1] = l;
      }
      for (let j = rlo; j < rhi; j++) emit(j, sHi[at + ranks[j]! - base]!, sLo[at + ranks[j]! - base]!);
      return;
    }
    let orHi = 0, andHi = -1, orLo = 0, andLo = -1;
    for (let i = at; i < end; i++) {
      orHi |= sHi[i]!;
      andHi &= sHi[i]!;
      orLo |= sLo[i]!;
      andLo &= sLo[i]!;
    }
    const diffHi = (orHi ^ andHi) >>> 0;
    const diffLo = (orLo ^ andLo) >>> 0;
    if (diffHi === 0 && diffLo === 0) {
      for (let j = rlo; j < rhi; j++) emit(j, sHi[at]!, sLo[at]!);
      return;
    }
    const useHi = diffHi !== 0;
    const words = useHi ? sHi : sLo;
    const shift = ((31 - Math.clz32(useHi ? diffHi : diffLo)) >> 3) << 3;
    const h = hist[depth]!;
    const r = route[depth]!;
    h.fill(0);
    for (let i = at; i < end; i++) h[(words[i]! >>> shift) & 255]!++;
    // Each wanted bucket's write position; -1 for the buckets no rank falls in.
    r.fill(-1);
    const wanted: number[] = [];
    let start = 0;
    let j = rlo;
    for (let b = 0; b < 256 && j < rhi; b++) {
      const stop = start + h[b]!;
      if (ranks[j]! - base < stop) {
        const first = j;
        while (j < rhi && ranks[j]! - base < stop) j++;
        r[b] = at + start;
        wanted.push(b, start, h[b]!, first, j);
      }
      start = stop;
    }
    for (let i = at; i < end; i++) {
      const b = (words[i]! >>> shift) & 255;
      const p = r[b]!;
      if (p >= 0) {
        dHi[p] = sHi[i]!;
        dLo[p] = sLo[i]!;
        r[b] = p + 1;
      }
    }
    for (let w = 0; w < wanted.length; w += 5) {
      const [, bStart, count, first, last] = [wanted[w]!, wanted[w + 1]!, wanted[w + 2]!, wanted[w + 3]!, wanted[w + 4]!];
      select(!fromA, at + bStart, count, base + bStart, first, last, depth + 1);
    }
  }

  return (values, millis) => {
    const n = values.length;
    const k = millis.length;
    if (n === 0) throw new Error('plain percentiles: no values');
    if (hiA.length < n) {
      hiA = new Uint32Array(n); loA = new Uint32Array(n); hiB = new Uint32Array(n); loB = new Uint32Array(n);
    }
    const words = new Uint32Array(values.buffer, values.byteOffset, n * 2);
    for (let i = 0; i < n; i++) {
      loA[i] = words[2 * i]!;
      hiA[i] = words[2 * i + 1]!;
    }
    if (ranks.length < k) {
      ranks = new Float64Array(k);
      slots = new Int32Array(k);
    }
    const order = Array.from(millis, (p, slot) => [Math.max(0, Math.ceil((p * n) / 100_000) - 1), slot] as const).sort((a, b) => a[0] - b[0]);
    order.forEach(([rank, slot], j) => {
      ranks[j] = rank;
      slots[j] = slot;
    });
    out = new BigUint64Array(k);
    select(true, 0, n, 0, 0, k, 0);
    return out;
  };
}
