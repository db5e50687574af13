/**
 * Trades of the synthetic market. `TradeFlow` owns the pairs' price walks and draws each block's
 * fills (count, size, side, price) from its own stream, so the market does not depend on the
 * transaction count; `assignTrades` then attaches the fills to the block's successful swap
 * transactions.
 *
 * - Count per pair and block: Poisson(tradesPerBlock x regime trade rate x 2.5 in a hot spell).
 * - Size: log-normal in USD around the pair's median (log-sd 1.7), clamped to $1..$250k; SOL-quoted
 *   sizes use the SOL/USDC mid. Raw amounts are rounded to the token's decimals, at least 1.
 * - Price: mid x e^(N x fillNoise) x (1 +- halfSpread x U(0.5, 1.5)) (a buy pays above the mid);
 *   0.4% of fills are outliers at mid x e^(+-U(0.4, 1.6)).
 * - Side: buy with probability 0.5 + clamp(1.5 x drift + 0.1 x latest shock, +-0.2).
 */
import type { TradeRow, TransactionRow } from '../schema/tables.js';
import {
  MAX_TRADE_USD,
  MIN_TRADE_USD,
  OUTLIER_SHARE,
  PAIRS,
  SECOND_FILL_SHARE,
  SOL_MINT,
  TRADE_SIZE_SIGMA,
  USDC_MINT,
  type PairSpec,
} from './constants.js';
import { HOT_MULTIPLIER, PriceWalk } from './price-walk.js';
import type { Rng } from './prng.js';

const MAX_RAW = 9e15; // amounts stay exact f64 integers before the bigint conversion

/** A fill before it is attached to a transaction. */
export interface TradeDraft {
  readonly pair: PairSpec;
  readonly baseAmount: number;
  readonly quoteAmount: number;
  readonly isBuy: boolean;
}

/** The mid price of a pair at a block: the generator's ground truth, not a canonical table. */
export interface PairPrice {
  readonly base: string;
  readonly quote: string;
  /** Quote per base, decimal-adjusted. */
  readonly price: number;
}

/** What the block loop needs of a market's trade flow (the three-pair demo market or a wide one). */
export interface TradeSource {
  /** Advances the market one slot under the regime's volatility multiplier. */
  step(volatilityMultiplier: number): void;
  /** The fills of the block at this slot, under the regime's trade-rate multiplier. */
  drafts(tradeRate: number): TradeDraft[];
  /** Mid prices at this block (the generator's ground truth). */
  midPrices(): PairPrice[];
}

/** The pairs' price walks and trade flow. */
export class TradeFlow implements TradeSource {
  private readonly rng: Rng;
  private readonly walks: PriceWalk[];
  private readonly solWalk: PriceWalk;

  /** A flow over `PAIRS` (SOL/USDC must be one of them: it prices SOL-quoted trade sizes). */
  constructor(rng: Rng) {
    this.rng = rng;
    this.walks = PAIRS.map((p) => new PriceWalk(p.startPrice, p.slotVolatility));
    const sol = PAIRS.findIndex((p) => p.base.mint === SOL_MINT && p.quote.mint === USDC_MINT);
    this.solWalk = this.walks[sol];
  }

  /** Advances every walk one slot. */
  step(volatilityMultiplier: number): void {
    for (const walk of this.walks) walk.step(this.rng, volatilityMultiplier);
  }

  /** Current mid prices, in `PAIRS` order. */
  midPrices(): PairPrice[] {
    return PAIRS.map((p, i) => ({ base: p.base.mint, quote: p.quote.mint, price: this.walks[i].price }));
  }

  /** The fills of one block, pair by pair. */
  drafts(tradeRate: number): TradeDraft[] {
    const rng = this.rng;
    const out: TradeDraft[] = [];
    for (let w = 0; w < PAIRS.length; w++) {
      const pair = PAIRS[w];
      const walk = this.walks[w];
      const count = rng.poisson(pair.tradesPerBlock * tradeRate * (walk.hot ? HOT_MULTIPLIER : 1));
      const quoteUsd = pair.quote.mint === USDC_MINT ? 1 : this.solWalk.price;
      const buyProbability = 0.5 + Math.max(-0.2, Math.min(0.2, 1.5 * walk.drift + 0.1 * walk.shock));
      for (let k = 0; k < count; k++) out.push(drawFill(rng, pair, walk.price, quoteUsd, buyProbability));
    }
    return out;
  }
}

/**
 * One fill of `pair` at mid price `mid` (quote per base), a quote token worth `quoteUsd`: size,
 * side (buy with probability `buyProbability`) and price as the module comment describes.
 */
export function drawFill(rng: Rng, pair: PairSpec, mid: number, quoteUsd: number, buyProbability: number): TradeDraft {
  const usd = Math.min(MAX_TRADE_USD, Math.max(MIN_TRADE_USD, rng.logNormal(pair.medianTradeUsd, TRADE_SIZE_SIGMA)));
  const isBuy = rng.float() < buyProbability;
  let fill: number;
  if (rng.float() < OUTLIER_SHARE) {
    fill = mid * Math.exp((rng.float() < 0.5 ? -1 : 1) * rng.uniform(0.4, 1.6));
  } else {
    const spread = pair.halfSpread * rng.uniform(0.5, 1.5);
    fill = mid * Math.exp(pair.fillNoise * rng.normal()) * (isBuy ? 1 + spread : 1 - spread);
  }
  const baseUnits = usd / (mid * quoteUsd);
  const baseAmount = clampRaw(baseUnits * 10 ** pair.base.decimals);
  const quoteAmount = clampRaw(baseAmount * fill * 10 ** (pair.quote.decimals - pair.base.decimals));
  return { pair, baseAmount, quoteAmount, isBuy };
}

function clampRaw(amount: number): number {
  return Math.min(MAX_RAW, Math.max(1, Math.round(amount)));
}

/**
 * Attaches fills to transactions: each fill takes a distinct successful swap transaction of the block
 * (fill_index 0), or with probability 6% (or when none is left) becomes the second fill (fill_index 1)
 * of a transaction that has one. Fills that find no transaction are dropped. Sorted by
 * (tx_index, fill_index).
 */
export function assignTrades(
  drafts: readonly TradeDraft[],
  transactions: readonly TransactionRow[],
  swapIndexes: readonly number[],
  rng: Rng,
  slot: bigint,
  timestamp: bigint,
): TradeRow[] {
  const free = swapIndexes.slice();
  const single: number[] = [];
  const trades: TradeRow[] = [];
  for (const draft of drafts) {
    let txIndex: number;
    let fillIndex: number;
    const second = single.length > 0 && (free.length === 0 || rng.float() < SECOND_FILL_SHARE);
    if (second) {
      const j = rng.int(single.length);
      txIndex = single[j];
      single[j] = single[single.length - 1];
      single.pop();
      fillIndex = 1;
    } else if (free.length > 0) {
      const j = rng.int(free.length);
      txIndex = free[j];
      free[j] = free[free.length - 1];
      free.pop();
      single.push(txIndex);
      fillIndex = 0;
    } else {
      continue;
    }
    const tx = transactions[txIndex];
    trades.push({
      signature: tx.signature,
      signer: tx.signer,
      slot,
      tx_index: txIndex,
      fill_index: fillIndex,
      timestamp,
      base: draft.pair.base.mint,
      quote: draft.pair.quote.mint,
      base_amount: BigInt(draft.baseAmount),
      quote_amount: BigInt(draft.quoteAmount),
      base_decimals: draft.pair.base.decimals,
      quote_decimals: draft.pair.quote.decimals,
      is_buy: draft.isBuy,
    });
  }
  trades.sort((a, b) => a.tx_index - b.tx_index || a.fill_index - b.fill_index);
  return trades;
}
