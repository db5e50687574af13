/**
 * The mid price of one pair: a geometric random walk stepped once per 400 ms slot, with a slowly
 * mean-reverting drift (trends of a few minutes) and rare pair-specific "hot" spells (about one per
 * 20 minutes, ~40 s long) that multiply volatility and trade rate, on top of the market regime.
 */
import type { Rng } from './prng.js';

const DRIFT_PERSISTENCE = 0.997;
const DRIFT_SHOCK = 0.004; // stationary drift sd ~0.05 step-sds: trends comparable to the noise
const HOT_START = 1 / 3000;
const HOT_END = 1 / 100;
/** Volatility and trade-rate multiplier of a hot spell. */
export const HOT_MULTIPLIER = 2.5;

/** One pair's mid price process. */
export class PriceWalk {
  /** Current mid price (quote per base, decimal-adjusted). */
  price: number;
  /** Drift in units of the step sd (positive: trending up). */
  drift = 0;
  /** The latest step's standard normal shock. */
  shock = 0;
  /** Whether the pair is in a hot spell. */
  hot = false;
  private logPrice: number;
  private readonly slotVolatility: number;

  /** A walk from `startPrice` with per-slot log-sd `slotVolatility`. */
  constructor(startPrice: number, slotVolatility: number) {
    this.price = startPrice;
    this.logPrice = Math.log(startPrice);
    this.slotVolatility = slotVolatility;
  }

  /** Advances one slot under the regime's volatility multiplier. */
  step(rng: Rng, volatilityMultiplier: number): void {
    this.hot = this.hot ? rng.float() >= HOT_END : rng.float() < HOT_START;
    this.drift = DRIFT_PERSISTENCE * this.drift + DRIFT_SHOCK * rng.normal();
    this.shock = rng.normal();
    const sd = this.slotVolatility * volatilityMultiplier * (this.hot ? HOT_MULTIPLIER : 1);
    this.logPrice += sd * (this.drift + this.shock);
    this.price = Math.exp(this.logPrice);
  }
}
