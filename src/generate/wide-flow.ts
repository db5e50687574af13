/**
 * The trade flow of a wide market (thousands of pairs). Each block draws its swap count,
 * Poisson(swaps per block x cbrt(regime trade rate) / its long-run mean: a steadier flow than the
 * demo market's, so that a few minutes of a calm regime keep most of the rate), and each swap's pair from the
 * universe's Zipf weights. A pair's mid price is a geometric random walk advanced lazily, only when
 * the pair trades: over the slots since its last trade the log-price step is normal with variance
 * slotVolatility^2 x the sum of the regime's squared volatility multipliers over those slots (the
 * same law as stepping every slot, at a cost per trade instead of per pair and slot). Sizes and
 * prices are those of the demo market's fills (`drawFill`); a buy is likelier after an up step.
 * Wide pairs have no hot spells.
 */
import { SLOT_SECONDS, SOL_MINT, USDC_MINT, USDT_MINT } from './constants.js';
import type { Rng } from './prng.js';
import { longRunMean } from './regime.js';
import { drawFill, type PairPrice, type TradeDraft, type TradeSource } from './trades.js';
import { pickPair, type Universe } from './universe.js';

const MEAN_RATE = longRunMean((regime) => Math.cbrt(regime.tradeRate));

/** Lazily walked mid prices and heavy-tailed trade flow over a universe's pairs. */
export class WideTradeFlow implements TradeSource {
  private readonly rng: Rng;
  private readonly universe: Universe;
  private readonly swapsPerBlock: number;
  /** Sum of squared volatility multipliers over the slots so far (the walks' variance clock). */
  private clock = 0;
  private readonly logPrice: Float64Array;
  private readonly updatedAt: Float64Array;
  private readonly shock: Float64Array;
  private readonly solUsdc: number;
  private readonly usdtUsdc: number;
  private traded: number[] = [];
  private readonly seen: Uint8Array;

  /** A flow over `universe` at `swapsPerSecond` on average, drawing from `rng`. */
  constructor(rng: Rng, universe: Universe, swapsPerSecond: number) {
    this.rng = rng;
    this.universe = universe;
    this.swapsPerBlock = swapsPerSecond * SLOT_SECONDS;
    const n = universe.pairs.length;
    this.logPrice = Float64Array.from(universe.pairs, (p) => Math.log(p.startPrice));
    this.updatedAt = new Float64Array(n);
    this.shock = new Float64Array(n);
    this.seen = new Uint8Array(n);
    this.solUsdc = universe.pairs.findIndex((p) => p.base.mint === SOL_MINT && p.quote.mint === USDC_MINT);
    this.usdtUsdc = universe.pairs.findIndex((p) => p.base.mint === USDT_MINT);
  }

  /** Advances the variance clock one slot. */
  step(volatilityMultiplier: number): void {
    this.clock += volatilityMultiplier * volatilityMultiplier;
  }

  /** The fills of one block, in draw order. */
  drafts(tradeRate: number): TradeDraft[] {
    const rng = this.rng;
    for (const i of this.traded) this.seen[i] = 0;
    this.traded = [];
    const count = rng.poisson((this.swapsPerBlock * Math.cbrt(tradeRate)) / MEAN_RATE);
    const out: TradeDraft[] = new Array(count);
    for (let k = 0; k < count; k++) {
      const i = pickPair(this.universe.weights, rng.float());
      const pair = this.universe.pairs[i];
      const mid = this.advance(i);
      const quoteUsd = pair.quote.mint === SOL_MINT ? this.advance(this.solUsdc) : pair.quote.mint === USDT_MINT ? this.advance(this.usdtUsdc) : 1;
      const buyProbability = 0.5 + Math.max(-0.2, Math.min(0.2, 0.15 * this.shock[i]));
      out[k] = drawFill(rng, pair, mid, quoteUsd, buyProbability);
      if (this.seen[i] === 0) {
        this.seen[i] = 1;
        this.traded.push(i);
      }
    }
    return out;
  }

  /** Mid prices of SOL/USDC and of the pairs that traded in the latest block. */
  midPrices(): PairPrice[] {
    const indexes = this.seen[this.solUsdc] ? this.traded : [this.solUsdc, ...this.traded];
    return indexes.map((i) => {
      const pair = this.universe.pairs[i];
      return { base: pair.base.mint, quote: pair.quote.mint, price: this.advance(i) };
    });
  }

  /** Brings pair `i`'s walk up to the current slot; returns its mid price. */
  private advance(i: number): number {
    const elapsed = this.clock - this.updatedAt[i];
    if (elapsed > 0) {
      const z = this.rng.normal();
      this.logPrice[i] += this.universe.pairs[i].slotVolatility * Math.sqrt(elapsed) * z;
      this.updatedAt[i] = this.clock;
      this.shock[i] = z;
    }
    return Math.exp(this.logPrice[i]);
  }
}
