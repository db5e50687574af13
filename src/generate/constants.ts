/**
 * Fixed facts of the synthetic market: program ids, the token set, the traded pairs and their
 * price-process parameters, and the compute-budget constants.
 */

/** Real mainnet program ids that the synthetic transactions name as their `program`. */
export const PROGRAMS = {
  vote: 'Vote111111111111111111111111111111111111111',
  system: '11111111111111111111111111111111',
  token: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  token2022: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  associatedToken: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  memo: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  jupiter: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
  raydiumAmm: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
  raydiumClmm: 'CAMMCzo5YL8w4VFF8KVHrK22GGUsp5VTaW7grrKgrWqK',
  orcaWhirlpool: 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc',
  meteoraDlmm: 'LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo',
  phoenix: 'PhoeNiXZ8ByJGLkxNfZRnkUfjvmuYqLR89jjFHGqdXY',
  pumpFun: '6EF8rrecthR5Dkzon8Nwu78hRvfCKubJ14M5uBEwF6P',
} as const;

/** A non-vote program with its draw weights (with and without a compute-unit price) and whether it swaps. */
export interface ProgramMix {
  readonly id: string;
  readonly pricedWeight: number;
  readonly unpricedWeight: number;
  readonly swaps: boolean;
}

/** The programs of non-vote transactions. Unpriced transactions lean to plain transfers. */
export const PROGRAM_MIX: readonly ProgramMix[] = [
  { id: PROGRAMS.jupiter, pricedWeight: 22, unpricedWeight: 10, swaps: true },
  { id: PROGRAMS.raydiumAmm, pricedWeight: 10, unpricedWeight: 5, swaps: true },
  { id: PROGRAMS.raydiumClmm, pricedWeight: 5, unpricedWeight: 1, swaps: true },
  { id: PROGRAMS.orcaWhirlpool, pricedWeight: 8, unpricedWeight: 3, swaps: true },
  { id: PROGRAMS.meteoraDlmm, pricedWeight: 6, unpricedWeight: 2, swaps: true },
  { id: PROGRAMS.phoenix, pricedWeight: 3, unpricedWeight: 0, swaps: true },
  { id: PROGRAMS.pumpFun, pricedWeight: 9, unpricedWeight: 5, swaps: true },
  { id: PROGRAMS.system, pricedWeight: 14, unpricedWeight: 35, swaps: false },
  { id: PROGRAMS.token, pricedWeight: 8, unpricedWeight: 20, swaps: false },
  { id: PROGRAMS.token2022, pricedWeight: 2, unpricedWeight: 2, swaps: false },
  { id: PROGRAMS.associatedToken, pricedWeight: 9, unpricedWeight: 12, swaps: false },
  { id: PROGRAMS.memo, pricedWeight: 4, unpricedWeight: 5, swaps: false },
];

/** Wrapped SOL and USDC mints (mainnet). */
export const SOL_MINT = 'So11111111111111111111111111111111111111112';
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** USDT mint (mainnet), the second stablecoin quote of the wide markets. */
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';
/**
 * Synthetic token mints: `randomPublicKey(Rng.from('chainlens', 'mint:<SYMBOL>'))`, fixed for every
 * seed so that examples and docs can name them.
 */
export const LENS_MINT = '4xSiR1nmYBrXQyHytFZYBpvXetoF97BMgVPJdRCgBaMa';
export const PUPS_MINT = '4dYHuJ4vy8gBaTajAJdkrDW9ehXvcLSzVk7BQ3Ceau1C';

/** A token of the synthetic market. */
export interface TokenSpec {
  readonly mint: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Total supply in raw units. */
  readonly supply: bigint;
}

/** The four tokens: SOL, USDC and two synthetic ones (a mid-cap and a BONK-like meme coin). */
export const TOKENS: readonly TokenSpec[] = [
  { mint: SOL_MINT, name: 'Wrapped SOL', symbol: 'SOL', decimals: 9, supply: 604_000_000n * 10n ** 9n },
  { mint: USDC_MINT, name: 'USD Coin', symbol: 'USDC', decimals: 6, supply: 9_500_000_000n * 10n ** 6n },
  { mint: LENS_MINT, name: 'Chainlens Demo Token (synthetic)', symbol: 'LENS', decimals: 6, supply: 1_000_000_000n * 10n ** 6n },
  { mint: PUPS_MINT, name: 'Pups (synthetic meme coin)', symbol: 'PUPS', decimals: 5, supply: 88_000_000_000_000n * 10n ** 5n },
];

const token = (symbol: string): TokenSpec => TOKENS.find((t) => t.symbol === symbol)!;

/** A traded pair and the parameters of its price process and trade flow. */
export interface PairSpec {
  readonly base: TokenSpec;
  readonly quote: TokenSpec;
  /** Price (quote per base, decimal-adjusted) at the first slot. */
  readonly startPrice: number;
  /** Standard deviation of the log mid-price step per 400 ms slot, before regime multipliers. */
  readonly slotVolatility: number;
  /** Mean trades per block in the "active" regime. */
  readonly tradesPerBlock: number;
  /** Median trade size in USD (log-normal, log-sd `TRADE_SIZE_SIGMA`). */
  readonly medianTradeUsd: number;
  /** Log-sd of a fill's price around the mid, and the mean half spread paid (fractions). */
  readonly fillNoise: number;
  readonly halfSpread: number;
}

/** The three pairs: SOL/USDC, LENS/USDC (a token in USDC) and PUPS/SOL (a meme coin in SOL). */
export const PAIRS: readonly PairSpec[] = [
  { base: token('SOL'), quote: token('USDC'), startPrice: 140, slotVolatility: 1e-4, tradesPerBlock: 2.5, medianTradeUsd: 180, fillNoise: 0.0008, halfSpread: 0.0004 },
  { base: token('LENS'), quote: token('USDC'), startPrice: 0.85, slotVolatility: 2.5e-4, tradesPerBlock: 1, medianTradeUsd: 90, fillNoise: 0.002, halfSpread: 0.0012 },
  { base: token('PUPS'), quote: token('SOL'), startPrice: 1.6e-7, slotVolatility: 5e-4, tradesPerBlock: 1.8, medianTradeUsd: 60, fillNoise: 0.004, halfSpread: 0.0025 },
];

/** Log-sd of trade sizes in USD; sizes are clamped to [MIN_TRADE_USD, MAX_TRADE_USD]. */
export const TRADE_SIZE_SIGMA = 1.7;
export const MIN_TRADE_USD = 1;
export const MAX_TRADE_USD = 250_000;
/** Share of fills far from the market (a factor e^0.4..e^1.6 away, beyond any sane outlier threshold). */
export const OUTLIER_SHARE = 0.004;
/** Share of trades that are the second fill (fill_index 1) of a transaction that already traded. */
export const SECOND_FILL_SHARE = 0.06;

/** Slot time: 400 ms, in nanoseconds. */
export const SLOT_NANOS = 400_000_000n;
/** Slot time in seconds (rates per second to rates per block). */
export const SLOT_SECONDS = Number(SLOT_NANOS) / 1e9;
/** 2026-01-01T00:00:00Z in nanoseconds. */
export const DEFAULT_START = 1_767_225_600n * 1_000_000_000n;
/** A mainnet-like slot for 2026-01-01 (mainnet passed 361,774,429 on 2025-08-22). */
export const DEFAULT_SLOT0 = 388_000_000n;
/** Default mean transactions per block, votes included. */
export const DEFAULT_TX_PER_BLOCK = 1300;

/** Block compute limit: 60M CU (mainnet since SIMD-0256, 2025; also the engine's default). */
export const BLOCK_CU_LIMIT = 60_000_000;
/** Per-instruction default limit without SetComputeUnitLimit (pre-SIMD-0170 rule) and the cap. */
export const DEFAULT_CU_PER_INSTRUCTION = 200_000;
export const MAX_CU_LIMIT = 1_400_000;
/**
 * Vote transactions: one Vote instruction without compute-budget instructions, so the pre-SIMD-0170
 * default limit of 200,000; they consume the Vote program's fixed 2,100 CU.
 */
export const VOTE_CU_LIMIT = 200_000;
export const VOTE_CU_CONSUMED = 2_100;
