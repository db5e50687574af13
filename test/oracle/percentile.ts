/**
 * Nearest-rank percentiles (DESIGN.md 6) in integer arithmetic: for sorted x[0..n-1] and p in
 * thousandths of a percent, x[max(0, ceil(p n / 100000) - 1)]; and the suffix list of the seed
 * (2.2) with the percentile each suffix names.
 */

/** The value of rank ceil(p n / 100000) (1-based, at least 1) of an ascending list; p in thousandths of a percent. */
export function nearestRank<T>(ascending: readonly T[], p: number): T {
  const n = BigInt(ascending.length);
  if (n === 0n) throw new RangeError('nearestRank of nothing');
  const rank = (BigInt(p) * n + 99_999n) / 100_000n;
  return ascending[Number(rank > 0n ? rank - 1n : 0n)]!;
}

/** Ascending order for bigints or numbers. */
export const ascending = <T extends bigint | number>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0);

/** The statistic suffixes of seed 2.2, in field order, each with its percentile (thousandths of a percent) or 'mean'. */
export const SUFFIX_PERCENTILES: readonly (readonly [string, number | 'mean'])[] = [
  ['mean', 'mean'], ['median', 50_000], ['min', 0], ['max', 100_000],
  ['p5', 5_000], ['p10', 10_000], ['p15', 15_000], ['p20', 20_000], ['p25', 25_000], ['p30', 30_000],
  ['p35', 35_000], ['p40', 40_000], ['p45', 45_000], ['p50', 50_000], ['p55', 55_000], ['p60', 60_000],
  ['p65', 65_000], ['p70', 70_000], ['p75', 75_000], ['p80', 80_000], ['p85', 85_000], ['p90', 90_000],
  ['p95', 95_000], ['p96', 96_000], ['p97', 97_000], ['p98', 98_000], ['p99', 99_000],
  ['p99_9', 99_900], ['p99_99', 99_990], ['p99_999', 99_999],
];

/** The fee percentiles of the position_at_fee_pN fields. */
export const AT_FEE_PERCENTILES = [25, 50, 65, 70, 75, 85, 90, 95, 99];

/** Recommendation tiers and the price percentile (whole percent) of each. */
export const TIER_PERCENTILES: readonly (readonly [string, number])[] = [
  ['min', 0], ['low', 25], ['medium', 50], ['high', 75], ['very_high', 95], ['max', 100],
];
