/**
 * Market profiles and size options. The `default` profile is the small three-pair demo market
 * (SOL/USDC, LENS/USDC, PUPS/SOL, ~8 trades a second); `mainnet` is a wide market at today's mainnet
 * scale: 1,500 tokens, 2,000 pairs with heavy-tailed activity, 300 swaps a second (~120 a block) in
 * ~1,450 transactions a block. Any size option (`tokens`, `pairs`, `swapsPerSecond`) makes the market
 * wide, the options not given taken from the profile (or derived from the others).
 */
import { DEFAULT_TX_PER_BLOCK } from './constants.js';

/** A named market profile. */
export type MarketProfile = 'default' | 'mainnet';

/** The size of a wide market. */
export interface MarketSize {
  /** Tokens, the three quotes (SOL, USDC, USDT) included. */
  readonly tokens: number;
  /** Traded pairs, the three majors (SOL/USDC, SOL/USDT, USDT/USDC) included. */
  readonly pairs: number;
  /** Mean swaps per second over the long run (regimes move it block by block). */
  readonly swapsPerSecond: number;
}

/** The size options, as `MarketOptions` carries them. */
export interface SizeOptions {
  profile?: MarketProfile;
  tokens?: number;
  pairs?: number;
  swapsPerSecond?: number;
  txPerBlock?: number;
}

/** What a profile and the size options resolve to. */
export interface ResolvedMarket {
  readonly txPerBlock: number;
  /** Undefined for the three-pair demo market. */
  readonly size?: MarketSize;
}

/** The quotes every wide market has. */
const QUOTE_COUNT = 3;
const MAX_PAIRS = 100_000;
const MAX_SWAPS_PER_SECOND = 10_000;

/** The profiles' defaults. */
export const PROFILES = {
  default: { txPerBlock: DEFAULT_TX_PER_BLOCK, swapsPerSecond: 15 },
  mainnet: { txPerBlock: 1450, tokens: 1500, pairs: 2000, swapsPerSecond: 300 },
} as const;

/** Resolves the profile and size options; throws a RangeError naming the option at fault. */
export function resolveMarket(options: SizeOptions): ResolvedMarket {
  const profile = options.profile ?? 'default';
  if (profile !== 'default' && profile !== 'mainnet') throw new RangeError(`profile must be 'default' or 'mainnet': ${String(profile)}`);
  const defaults = PROFILES[profile];
  const txPerBlock = options.txPerBlock ?? defaults.txPerBlock;
  const { tokens, pairs, swapsPerSecond } = options;
  if (profile === 'default' && tokens === undefined && pairs === undefined && swapsPerSecond === undefined) return { txPerBlock };

  if (tokens !== undefined && !(Number.isInteger(tokens) && tokens >= QUOTE_COUNT)) throw new RangeError(`tokens must be an integer >= ${QUOTE_COUNT}: ${tokens}`);
  if (pairs !== undefined && !(Number.isInteger(pairs) && pairs >= QUOTE_COUNT && pairs <= MAX_PAIRS)) {
    throw new RangeError(`pairs must be an integer in [${QUOTE_COUNT}, ${MAX_PAIRS}]: ${pairs}`);
  }
  if (swapsPerSecond !== undefined && !(Number.isFinite(swapsPerSecond) && swapsPerSecond >= 0 && swapsPerSecond <= MAX_SWAPS_PER_SECOND)) {
    throw new RangeError(`swapsPerSecond must be in [0, ${MAX_SWAPS_PER_SECOND}]: ${swapsPerSecond}`);
  }
  // Every synthetic token trades against one to three quotes.
  const profilePairs = 'pairs' in defaults ? defaults.pairs : undefined;
  const profileTokens = 'tokens' in defaults ? defaults.tokens : undefined;
  const resolvedPairs = pairs ?? (tokens !== undefined ? Math.round(QUOTE_COUNT + (tokens - QUOTE_COUNT) * 4 / 3) : profilePairs ?? QUOTE_COUNT);
  const resolvedTokens = tokens ?? (pairs === undefined && profileTokens !== undefined ? profileTokens : Math.round(QUOTE_COUNT + (resolvedPairs - QUOTE_COUNT) * 3 / 4));
  const synthetic = resolvedTokens - QUOTE_COUNT;
  const extra = resolvedPairs - QUOTE_COUNT;
  if (extra < synthetic || extra > QUOTE_COUNT * synthetic) {
    throw new RangeError(`pairs must be between tokens and 3 x tokens - 6 (each synthetic token trades against one to three quotes): ${resolvedPairs} pairs, ${resolvedTokens} tokens`);
  }
  return { txPerBlock, size: { tokens: resolvedTokens, pairs: resolvedPairs, swapsPerSecond: swapsPerSecond ?? defaults.swapsPerSecond } };
}
