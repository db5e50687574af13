/**
 * What a method handler can read. The engine builds one context and hands it to every handler;
 * families of methods add their state here as their engines land.
 */
import type { MarketEngine } from '../market/engine.js';
import type { PriorityFeeEngine } from '../priorityfee/engine.js';
import type { Store } from '../store/store.js';

export interface MethodContext {
  /** Engine options in force (minSamples, block CU limit...). */
  readonly options: Readonly<EngineSettings>;
  /** The store, once anything has been ingested or loaded; undefined over an empty engine. */
  readonly store: Store | undefined;
  /** State of the chain::priorityfee::* family, fed by the ingest pipeline. */
  readonly priorityFees: PriorityFeeEngine;
  /** State of the chain::market::* aggregates (block, ohlcv, volume, vwap, twap), fed by the ingest pipeline. */
  readonly market: MarketEngine;
}

/** Settings the methods read (DESIGN.md 5-7 defaults). */
export interface EngineSettings {
  /** Samples a window needs for is_valid (default 100). */
  minSamples: number;
  /** Compute-unit limit of a block without blocks.block_cu_limit, for block fill (default 60,000,000). */
  blockCuLimit: number;
  /** Block fill (percent) at which a block counts as saturated (default 90). */
  saturatedFillPct: number;
  /** Quote mints worth 1 USD (DESIGN.md 7); earlier ones win when a token has several routes in one block. */
  stablecoins: readonly string[];
  /** Outlier threshold t of the market block aggregates (DESIGN.md 7, default 0.25). */
  outlierThreshold: number;
}

/** USDC and USDT. */
export const DEFAULT_STABLECOINS: readonly string[] = ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'];

export const DEFAULT_SETTINGS: EngineSettings = {
  minSamples: 100, blockCuLimit: 60_000_000, saturatedFillPct: 90, stablecoins: DEFAULT_STABLECOINS, outlierThreshold: 0.25,
};
