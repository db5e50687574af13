/**
 * Market regimes: a three-state Markov chain stepped once per slot. The regime couples the fee
 * market to the trading: in a burst, prices move faster, trades and transactions are denser, fees
 * are higher, more transactions fail and more blocks fill up.
 */
import type { Rng } from './prng.js';

/** Everything that depends on the regime. */
export interface RegimeParams {
  readonly name: 'calm' | 'active' | 'burst';
  /** Multiplier of every pair's slot volatility. */
  readonly volatility: number;
  /** Multiplier of every pair's trade rate. */
  readonly tradeRate: number;
  /** Multiplier of the non-vote transaction count (normalised so the long-run mean is 1). */
  readonly nonVoteCount: number;
  /** Median compute-unit price of priced transactions, micro-lamports per CU. */
  readonly medianPrice: number;
  /** Share of non-vote transactions without a compute-unit price. */
  readonly zeroPriceShare: number;
  /** Share of non-vote transactions that fail. */
  readonly failureShare: number;
  /** Probability that the block is packed to 90-98.5% of the block CU limit. */
  readonly saturatedShare: number;
}

const CALM: RegimeParams = { name: 'calm', volatility: 0.7, tradeRate: 0.6, nonVoteCount: 0.85, medianPrice: 15_000, zeroPriceShare: 0.14, failureShare: 0.25, saturatedShare: 0.08 };
const ACTIVE: RegimeParams = { name: 'active', volatility: 1.2, tradeRate: 1.2, nonVoteCount: 1.05, medianPrice: 30_000, zeroPriceShare: 0.12, failureShare: 0.31, saturatedShare: 0.2 };
const BURST: RegimeParams = { name: 'burst', volatility: 3, tradeRate: 3, nonVoteCount: 1.4, medianPrice: 120_000, zeroPriceShare: 0.1, failureShare: 0.38, saturatedShare: 0.6 };

const STATES = [CALM, ACTIVE, BURST];
/** Per-slot transition probabilities [from][to]; the diagonal is what remains. Bursts last ~1 minute. */
const TRANSITIONS = [
  [0, 1 / 1500, 1 / 8000],
  [1 / 1200, 0, 1 / 3000],
  [1 / 600, 1 / 150, 0],
];

function stationary(): number[] {
  let p = [1 / 3, 1 / 3, 1 / 3];
  for (let it = 0; it < 20_000; it++) {
    const next = [0, 0, 0];
    for (let from = 0; from < 3; from++) {
      let stay = 1;
      for (let to = 0; to < 3; to++) {
        next[to] += p[from] * TRANSITIONS[from][to];
        stay -= TRANSITIONS[from][to];
      }
      next[from] += p[from] * stay;
    }
    p = next;
  }
  return p;
}

/** Long-run share of slots in each regime (calm, active, burst). */
export const REGIME_SHARES: readonly number[] = stationary();
/** Long-run mean of a quantity of the regime. */
export function longRunMean(of: (regime: RegimeParams) => number): number {
  return REGIME_SHARES.reduce((sum, share, i) => sum + share * of(STATES[i]), 0);
}
const COUNT_NORMALISER = longRunMean((s) => s.nonVoteCount);
const REGIMES: readonly RegimeParams[] = STATES.map((s) => ({ ...s, nonVoteCount: s.nonVoteCount / COUNT_NORMALISER }));

/** The regime chain of one run; starts in a state drawn from the long-run shares. */
export class RegimeChain {
  private state: number;
  private readonly rng: Rng;

  /** A chain driven by `rng`. */
  constructor(rng: Rng) {
    this.rng = rng;
    const u = rng.float();
    this.state = u < REGIME_SHARES[0] ? 0 : u < REGIME_SHARES[0] + REGIME_SHARES[1] ? 1 : 2;
  }

  /** The current regime. */
  get current(): RegimeParams {
    return REGIMES[this.state];
  }

  /** Advances one slot. */
  step(): void {
    const row = TRANSITIONS[this.state];
    let u = this.rng.float();
    for (let to = 0; to < 3; to++) {
      if (u < row[to]) {
        this.state = to;
        return;
      }
      u -= row[to];
    }
  }
}
