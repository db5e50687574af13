/**
 * The leader schedule of the synthetic chain: a small fixed validator set, stake-weighted, four
 * consecutive slots per leader (as on mainnet). Each validator has its own skip rate (mostly under
 * 2%, a few unreliable ones near 10%), averaging about 3% of slots, so skipped slots cluster on bad
 * leaders like mainnet's missed slots.
 */
import { cumulative, type Rng } from './prng.js';

/** Slots per leader window. */
export const SLOTS_PER_LEADER = 4;

/** Leader assignment and slot skipping. */
export class LeaderSchedule {
  /** Identities of the leaders (base58). */
  readonly leaders: readonly string[];
  /** Probability that each leader misses a slot of its window. */
  readonly skipRates: Float64Array;
  private readonly stake: Float64Array;
  private readonly key: number;

  /** A schedule over `leaders`, with stake and skip rates drawn from `rng`. */
  constructor(leaders: readonly string[], rng: Rng) {
    this.leaders = leaders;
    this.stake = cumulative(leaders.map((_, i) => 1 / (i + 3)));
    this.skipRates = Float64Array.from(leaders, () => 0.004 + 0.1 * rng.float() ** 3);
    this.key = rng.u32() | 0;
  }

  /** Index of the leader of `slot`: a stateless keyed hash of the leader window, weighted by stake. */
  leaderIndex(slot: number): number {
    const window = Math.floor(slot / SLOTS_PER_LEADER);
    let h = Math.imul((window % 4294967296) ^ this.key, 0x9e3779b1) ^ Math.floor(window / 4294967296);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    const u = ((h >>> 0) + 0.5) / 4294967296;
    const target = u * this.stake[this.stake.length - 1];
    let i = 0;
    while (this.stake[i] <= target) i++;
    return i;
  }

  /** Whether the leader of `slot` misses it (draws from `rng`). */
  skips(slot: number, rng: Rng): boolean {
    return rng.chance(this.skipRates[this.leaderIndex(slot)]);
  }
}
