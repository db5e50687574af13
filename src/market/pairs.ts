/**
 * The base/quote filters of the market methods (seed 4): no base = every pair; a base alone = every
 * pair with that base; a quote alone = every pair with that quote; both = that pair.
 */
import { compareText } from './chunk-trades.js';

/** The base and quote params of a market method. */
export interface PairFilter {
  readonly base?: string;
  readonly quote?: string;
}

/** A pair's key in maps of pairs. */
export const pairKey = (base: string, quote: string): string => `${base}/${quote}`;

/** Whether the pair passes the filter. */
export const matchesPair = (filter: PairFilter, base: string, quote: string): boolean =>
  (filter.base === undefined || filter.base === base) && (filter.quote === undefined || filter.quote === quote);

/** Order of pairs in answers that tie on time: base, then quote, ascending. */
export const comparePairs = (a: { base: string; quote: string }, b: { base: string; quote: string }): number =>
  compareText(a.base, b.base) || compareText(a.quote, b.quote);

/** A list read by position: an array, or items made as they are read. */
export interface OrderedList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * The first `limit` items of lists that are each already in answer order (`order` < 0: a comes
 * first), merged with a binary heap of the lists' heads: O(limit x log(lists)), no sort; only the
 * items taken (and the heads) are read.
 */
export function mergeOrdered<T>(lists: readonly OrderedList<T>[], order: (a: T, b: T) => number, limit: number): T[] {
  const heap = lists.filter((list) => list.length > 0).map((list) => ({ list, next: 0, head: list.at(0)! }));
  const head = (i: number) => heap[i]!.head;
  const less = (i: number, j: number) => order(head(i), head(j)) < 0;
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j]!, heap[i]!]);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && less(l, top)) top = l;
      if (r < heap.length && less(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const out: T[] = [];
  while (out.length < limit && heap.length > 0) {
    const first = heap[0]!;
    out.push(first.head);
    if (++first.next < first.list.length) first.head = first.list.at(first.next)!;
    else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
  }
  return out;
}
