/**
 * The market oracle for market.test.ts, on the engine's default settings: a thin adapter over the
 * independent oracle of test/oracle (market.ts: plain loops over trade rows, written from
 * DESIGN.md 5 and 7 and docs/semantics.md, with its own rounding, ids and wire formatting; none of
 * the engine's code).
 */
import type { OracleTrade } from '../oracle/data.js';
import type { Wire } from '../oracle/fees.js';
import { blockTradesRecord, candles, pairBlocks, trailingPoints, type PairBlock } from '../oracle/market.js';

export const STABLECOINS = ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'];

/** One pair's trades in one block, summarised by plain loops (usd NaN when unknown). */
export type OracleBlock = PairBlock;

/** Per (slot, pair) summaries of the trades, with USD prices; slot ascending. */
export const oracleBlocks = (trades: readonly OracleTrade[], threshold = 0.25): OracleBlock[] =>
  pairBlocks(trades, { stablecoins: STABLECOINS, outlierThreshold: threshold });

/** The chain::market::block record of one pair-block. */
export const blockRecord = (x: OracleBlock): Wire => blockTradesRecord(x);

/** The candles of one pair's blocks (slot ascending), oldest first. */
export const candleRecords = (blocks: readonly OracleBlock[], window: string): Wire[] => candles(blocks, window).map((c) => c.record);

/** Volume, VWAP and TWAP records of one pair's blocks (slot ascending), one per block, oldest first. */
export function trailingRecords(blocks: readonly OracleBlock[], window: string): { volume: Wire[]; vwap: Wire[]; twap: Wire[] } {
  const points = trailingPoints(blocks, window);
  return { volume: points.map((p) => p.volume), vwap: points.map((p) => p.vwap), twap: points.map((p) => p.twap) };
}
