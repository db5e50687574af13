/**
 * The base/quote filters of the market methods (seed 4): no base = every pair; a base alone = every
 * pair with that base; a quote alone = every pair with that quote; both = that pair.
 */
import { compareText } from './chunk-trades.js';

export interface PairFilter {
  readonly base?: string;
  readonly quote?: string;
}

export const matchesPair = (filter: PairFilter, base: string, quote: string): boolean =>
  (filter.base === undefined || filter.base === base) && (filter.quote === undefined || filter.quote === quote);

/** Order of pairs in answers that tie on time: base, then quote, ascending. */
export const comparePairs = (a: { base: string; quote: string }, b: { base: string; quote: string }): number =>
  compareText(a.base, b.base) || compareText(a.quote, b.quote);
