/**
 * The tokens and pairs of a wide market. Quotes: SOL, USDC and USDT, with the majors SOL/USDC,
 * SOL/USDT and USDT/USDC (the quote of a pair is the more quote-like mint: USDC > USDT > SOL).
 * Synthetic tokens, drawn from the seed, each trade against a primary quote (SOL 55%, USDC 35%,
 * USDT 10%); the pairs beyond one per token give the most popular tokens a second, then a third
 * quote. Activity is Zipf-like: the pair of activity rank k (0-based) has weight 1 / (k + 1), so a
 * few pairs trade in most blocks and most pairs a few times an hour.
 */
import { SLOT_SECONDS, SOL_MINT, TOKENS, USDC_MINT, USDT_MINT, type PairSpec, type TokenSpec } from './constants.js';
import { randomPublicKey } from './keys.js';
import type { MarketSize } from './profiles.js';
import { cumulative, Rng } from './prng.js';

/**
 * A wide market's tokens (quotes first) and pairs in activity order, with their cumulative weights.
 * A pair's `tradesPerBlock` is its long-run mean (its weight's share of the swaps).
 */
export interface Universe {
  readonly tokens: readonly TokenSpec[];
  /** Pairs by activity rank: SOL/USDC first. */
  readonly pairs: readonly PairSpec[];
  /** Cumulative Zipf weights of `pairs`, the table a trade's pair is drawn from. */
  readonly weights: Float64Array;
}

const SOL = TOKENS.find((t) => t.mint === SOL_MINT)!;
const USDC = TOKENS.find((t) => t.mint === USDC_MINT)!;
const USDT: TokenSpec = { mint: USDT_MINT, name: 'USDT', symbol: 'USDT', decimals: 6, supply: 2_400_000_000n * 10n ** 6n };
/** The quotes, in the order a token's second and third quotes are added. */
const QUOTES: readonly TokenSpec[] = [USDC, SOL, USDT];
const PRIMARY_QUOTE_WEIGHTS = cumulative([35, 55, 10]);
const QUOTE_USD_AT_START = new Map([[USDC_MINT, 1], [SOL_MINT, 140], [USDT_MINT, 1]]);
const DECIMALS = [6, 9, 5, 8];
const DECIMAL_WEIGHTS = cumulative([70, 20, 5, 5]);
/** Activity keys: a token's second and third pairs trade like a token this many times less popular. */
const SECOND_PAIR_FACTOR = 6;
const THIRD_PAIR_FACTOR = 20;

interface Draft {
  readonly spec: PairSpec;
  readonly key: number;
}

/** The universe of `size` for `seed` (the same seed gives the same tokens and pairs). */
export function buildUniverse(seed: number | string, size: MarketSize): Universe {
  const rng = Rng.from(seed, 'universe');
  const synthetic: TokenSpec[] = [];
  const usdPrices: number[] = [];
  const primary: number[] = [];
  for (let i = 0; i < size.tokens - QUOTES.length; i++) {
    const decimals = DECIMALS[rng.pick(DECIMAL_WEIGHTS)];
    const mint = randomPublicKey(rng);
    const supplyUnits = BigInt(Math.round(10 ** rng.uniform(6, 10))); // x 10^9 at most: below 2^64
    const label = String(i + 1).padStart(4, '0');
    synthetic.push({ mint, name: `Synthetic token ${label}`, symbol: `SYN${label}`, decimals, supply: supplyUnits * 10n ** BigInt(decimals) });
    usdPrices.push(10 ** rng.uniform(-6, 2.5));
    primary.push(rng.pick(PRIMARY_QUOTE_WEIGHTS));
  }

  const drafts: Draft[] = [
    { spec: major(SOL, USDC, 140, 1e-4, 400), key: 0 },
    { spec: major(SOL, USDT, 140, 1e-4, 250), key: 2.5 },
    { spec: major(USDT, USDC, 1, 5e-6, 2_000), key: 7.5 },
  ];
  const pairOf = (i: number, quote: TokenSpec, key: number): Draft => ({ key, spec: tokenPair(rng, synthetic[i], quote, usdPrices[i]) });
  synthetic.forEach((_, i) => drafts.push(pairOf(i, QUOTES[primary[i]], i + 1)));
  for (let extra = 0; drafts.length < size.pairs; extra++) {
    const i = extra % synthetic.length;
    const round = Math.floor(extra / synthetic.length); // 0: second quote, 1: third
    const others = QUOTES.filter((_, q) => q !== primary[i]);
    drafts.push(pairOf(i, others[round], (i + 1) * (round === 0 ? SECOND_PAIR_FACTOR : THIRD_PAIR_FACTOR)));
  }
  drafts.sort((a, b) => a.key - b.key);
  const weights = cumulative(drafts.map((_, rank) => 1 / (rank + 1)));
  const swapsPerBlock = size.swapsPerSecond * SLOT_SECONDS;
  return {
    tokens: [SOL, USDC, USDT, ...synthetic],
    pairs: drafts.map((d, rank) => ({ ...d.spec, tradesPerBlock: (swapsPerBlock / (rank + 1)) / weights[weights.length - 1] })),
    weights,
  };
}

function major(base: TokenSpec, quote: TokenSpec, startPrice: number, slotVolatility: number, medianTradeUsd: number): PairSpec {
  return { base, quote, startPrice, slotVolatility, tradesPerBlock: 0, medianTradeUsd, fillNoise: 0.0006, halfSpread: 0.0003 };
}

function tokenPair(rng: Rng, base: TokenSpec, quote: TokenSpec, usdPrice: number): PairSpec {
  const tail = rng.float(); // 0: a liquid token, 1: a thin one
  return {
    base,
    quote,
    startPrice: usdPrice / QUOTE_USD_AT_START.get(quote.mint)!,
    slotVolatility: 1.5e-4 * Math.exp(1.7 * tail),
    tradesPerBlock: 0,
    medianTradeUsd: 30 + 270 * (1 - tail) ** 2,
    fillNoise: 0.001 + 0.005 * tail,
    halfSpread: 0.0005 + 0.0035 * tail,
  };
}

/** The index of the pair a uniform `u` in (0, 1) draws: binary search of the cumulative weights. */
export function pickPair(weights: Float64Array, u: number): number {
  const target = u * weights[weights.length - 1];
  let lo = 0;
  let hi = weights.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (weights[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
