/**
 * The transactions of one synthetic block. Numbers stay plain f64 integers until the row is built;
 * every value involved stays below 2^53, so they are exact, and each row converts once to bigint.
 *
 * - Counts: votes ~ txPerBlock x 0.65 (+-3%); non-votes ~ txPerBlock x 0.35 x regime x log-normal(0.18).
 * - Compute-unit price (micro-lamports/CU): 0 for a regime share (10-14%) of non-votes; otherwise 20%
 *   pick a round wallet preset (1k..2M), 80% log-normal around the regime median (15k-120k), log-sd 2.4,
 *   clamped to [1, 5e8].
 * - Limits: the default 200,000 x instructions (1-7, cap 1.4M) for 70% of unpriced and 12% of priced
 *   transactions; else 50% a round preset (10k..1.4M), 50% a simulated limit (demand x 1.05-1.5).
 * - Demand: a log-normal share of the limit (median 25% of a default limit, 45% of a preset), or for a
 *   simulated limit log-normal CUs (median 90k, log-sd 1); failed transactions use 5-70% of that.
 *   Demand is then scaled down per block so that block fill hits a target (90-98.5% in a regime share
 *   of saturated blocks, else 25-85%, triangular) when demand allows; consumed is never above the
 *   limit and at least 150 CU. At the defaults: consumed median ~37k, mean ~76k; fill median ~58%,
 *   ~15% of blocks at 90% or more.
 * - Order: non-votes sorted by ln(1 + price) + N(0, 2^2) (a noisy priority scheduler); votes are
 *   interleaved uniformly.
 * - Write locks (accounts.ts, once the block's trades are attached): the signer first, then a vote's
 *   vote account, a swap's pools and token accounts, other transactions' app-state and token
 *   accounts. Hotness follows the price without changing it: the pools and app-state accounts are
 *   drawn Zipf-like with a tilt toward the hottest that grows with the transaction's price, so the
 *   prices above are the global distribution and the hottest accounts' local markets sit above it.
 *   `readonly_accounts` stays null.
 */
import type { TransactionRow } from '../schema/tables.js';
import {
  BLOCK_CU_LIMIT,
  DEFAULT_CU_PER_INSTRUCTION,
  MAX_CU_LIMIT,
  PROGRAM_MIX,
  PROGRAMS,
  VOTE_CU_CONSUMED,
  VOTE_CU_LIMIT,
} from './constants.js';
import type { KeyPool, SignatureMaker } from './keys.js';
import { cumulative, type Rng } from './prng.js';
import type { RegimeParams } from './regime.js';

/** Share of a block's transactions that are votes (before the regime moves the non-vote count). */
export const VOTE_SHARE = 0.65;
const VOTE_FAILURE_SHARE = 0.005;
const PRICE_SIGMA = 2.4;
const MAX_PRICE = 5e8; // x 1.4M CU stays below 2^53
const PRESET_PRICE_SHARE = 0.2;
const PRESET_PRICES = [1_000, 10_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000];
const PRESET_PRICE_WEIGHTS = cumulative([8, 20, 14, 22, 10, 10, 12, 4]);
const PRESET_LIMITS = [10_000, 60_000, 80_000, 100_000, 150_000, 200_000, 240_000, 300_000, 400_000, 600_000, 1_000_000, 1_400_000];
const PRESET_LIMIT_WEIGHTS = cumulative([3, 5, 5, 10, 6, 14, 4, 12, 6, 6, 5, 10]);
const INSTRUCTION_WEIGHTS = cumulative([30, 30, 20, 10, 5, 3, 2]);
const MIN_CONSUMED = 150;
const SORT_NOISE = 2;

const PRICED_PROGRAMS = cumulative(PROGRAM_MIX.map((p) => p.pricedWeight));
const UNPRICED_PROGRAMS = cumulative(PROGRAM_MIX.map((p) => p.unpricedWeight));

const ZERO = 0n;
const VOTE_CONSUMED = BigInt(VOTE_CU_CONSUMED);

/**
 * A block's transactions, plus the positions of those that can carry a trade and what the write
 * locks are drawn from (accounts.ts fills `writable_accounts` once the block's trades are attached).
 */
export interface BlockTransactions {
  readonly rows: TransactionRow[];
  /** Indexes of successful non-vote transactions of a swap program, ascending. */
  readonly swapIndexes: number[];
  /** Per row: the signer's index in the validator pool (a vote) or in the wallet pool. */
  readonly signers: Int32Array;
  /** Per row: the program's index in PROGRAM_MIX, -1 for a vote. */
  readonly programs: Int8Array;
  /** Per row: the compute-unit price. */
  readonly prices: Float64Array;
}

/** Generates blocks' transactions from one random stream, reusing scratch arrays between blocks. */
export class TransactionGenerator {
  private readonly rng: Rng;
  private readonly txPerBlock: number;
  private readonly validators: KeyPool;
  private readonly wallets: KeyPool;
  private readonly signatures: SignatureMaker;
  private capacity = 0;
  private price = new Float64Array(0);
  private limit = new Float64Array(0);
  private consumed = new Float64Array(0);
  private program = new Uint8Array(0);
  private failed = new Uint8Array(0);
  private sortKey = new Float64Array(0);
  private readonly order: number[] = [];

  /** `txPerBlock`: mean transactions per block, votes included. */
  constructor(rng: Rng, txPerBlock: number, validators: KeyPool, wallets: KeyPool, signatures: SignatureMaker) {
    this.rng = rng;
    this.txPerBlock = txPerBlock;
    this.validators = validators;
    this.wallets = wallets;
    this.signatures = signatures;
  }

  /** The transactions of the block at `slot` (`slotNumber` is the same slot as a number). */
  generate(slot: bigint, slotNumber: number, regime: RegimeParams): BlockTransactions {
    const rng = this.rng;
    const votes = Math.max(0, Math.round(this.txPerBlock * VOTE_SHARE * (1 + 0.03 * rng.normal())));
    const nonVotes = Math.max(
      0,
      Math.round(this.txPerBlock * (1 - VOTE_SHARE) * regime.nonVoteCount * Math.exp(0.18 * rng.normal() - 0.0162)),
    );
    this.drawNonVotes(nonVotes, votes, regime);

    const { price, limit, consumed, program, failed, sortKey, order } = this;
    order.length = nonVotes;
    for (let i = 0; i < nonVotes; i++) order[i] = i;
    order.sort((a, b) => sortKey[b] - sortKey[a]);

    const total = votes + nonVotes;
    const rows: TransactionRow[] = new Array(total);
    const swapIndexes: number[] = [];
    const signers = new Int32Array(total);
    const programs = new Int8Array(total);
    const prices = new Float64Array(total);
    let votesLeft = votes;
    let nonVotesLeft = nonVotes;
    for (let index = 0; index < total; index++) {
      const signature = this.signatures.make(slotNumber, index);
      if (rng.float() * (votesLeft + nonVotesLeft) < votesLeft) {
        votesLeft--;
        const validator = this.validators.pickIndex(rng);
        signers[index] = validator;
        programs[index] = -1;
        rows[index] = {
          slot,
          index,
          signature,
          signer: this.validators.keys[validator],
          program: PROGRAMS.vote,
          is_vote: true,
          failed: rng.float() < VOTE_FAILURE_SHARE,
          compute_unit_price: ZERO,
          compute_unit_limit: VOTE_CU_LIMIT,
          compute_units_consumed: VOTE_CONSUMED,
          priority_fee: ZERO,
          writable_accounts: null,
          readonly_accounts: null,
        };
      } else {
        const i = order[nonVotes - nonVotesLeft];
        nonVotesLeft--;
        const mix = PROGRAM_MIX[program[i]];
        if (mix.swaps && failed[i] === 0) swapIndexes.push(index);
        const wallet = this.wallets.pickIndex(rng);
        signers[index] = wallet;
        programs[index] = program[i];
        prices[index] = price[i];
        rows[index] = {
          slot,
          index,
          signature,
          signer: this.wallets.keys[wallet],
          program: mix.id,
          is_vote: false,
          failed: failed[i] === 1,
          compute_unit_price: BigInt(price[i]),
          compute_unit_limit: limit[i],
          compute_units_consumed: BigInt(consumed[i]),
          priority_fee: BigInt(priorityFee(price[i], limit[i])),
          writable_accounts: null,
          readonly_accounts: null, // never filled: local fee markets need the write locks only (accounts.ts)
        };
      }
    }
    return { rows, swapIndexes, signers, programs, prices };
  }

  /** Fills the scratch columns for `n` non-vote transactions. */
  private drawNonVotes(n: number, votes: number, regime: RegimeParams): void {
    this.ensureCapacity(n);
    const { rng, price, limit, consumed, program, failed, sortKey } = this;
    const priceMu = Math.log(regime.medianPrice);
    let demand = 0;
    for (let i = 0; i < n; i++) {
      const priced = rng.float() >= regime.zeroPriceShare;
      let p = 0;
      if (priced) {
        if (rng.float() < PRESET_PRICE_SHARE) p = PRESET_PRICES[rng.pick(PRESET_PRICE_WEIGHTS)];
        else p = Math.min(MAX_PRICE, Math.max(1, Math.round(Math.exp(priceMu + PRICE_SIGMA * rng.normal()))));
      }
      price[i] = p;
      program[i] = rng.pick(priced ? PRICED_PROGRAMS : UNPRICED_PROGRAMS);
      const fails = rng.float() < regime.failureShare;
      failed[i] = fails ? 1 : 0;

      let l: number;
      let use: number;
      if (rng.float() < (priced ? 0.12 : 0.7)) {
        l = Math.min(MAX_CU_LIMIT, DEFAULT_CU_PER_INSTRUCTION * (1 + rng.pick(INSTRUCTION_WEIGHTS)));
        use = l * Math.min(1, 0.25 * Math.exp(0.9 * rng.normal()));
      } else if (rng.float() < 0.5) {
        l = PRESET_LIMITS[rng.pick(PRESET_LIMIT_WEIGHTS)];
        use = l * Math.min(1, 0.45 * Math.exp(0.8 * rng.normal()));
      } else {
        use = Math.min(1_200_000, Math.max(300, 90_000 * Math.exp(rng.normal())));
        l = Math.max(1_000, Math.min(MAX_CU_LIMIT, Math.ceil(use * (1.05 + 0.45 * rng.float()))));
      }
      if (fails) use *= 0.05 + 0.65 * rng.float();
      limit[i] = l;
      consumed[i] = use;
      demand += use;
      sortKey[i] = Math.log1p(p) + SORT_NOISE * rng.normal();
    }

    // Pack toward the block's fill target; scaling down keeps every value under its limit.
    const fill = rng.float() < regime.saturatedShare ? 0.9 + 0.085 * rng.float() : 0.25 + 0.3 * (rng.float() + rng.float());
    const target = Math.max(0, fill * BLOCK_CU_LIMIT - votes * VOTE_CU_CONSUMED);
    const scale = demand > target ? target / demand : 1;
    for (let i = 0; i < n; i++) consumed[i] = Math.min(limit[i], Math.max(MIN_CONSUMED, Math.round(consumed[i] * scale)));
  }

  private ensureCapacity(n: number): void {
    if (n <= this.capacity) return;
    const size = Math.max(n, this.capacity * 2, 1024);
    this.capacity = size;
    this.price = new Float64Array(size);
    this.limit = new Float64Array(size);
    this.consumed = new Float64Array(size);
    this.program = new Uint8Array(size);
    this.failed = new Uint8Array(size);
    this.sortKey = new Float64Array(size);
  }
}

/** ceil(price x limit / 1e6) for integer price x limit < 2^53, exact in f64 (the quotient is corrected). */
export function priorityFee(price: number, limit: number): number {
  const product = price * limit;
  let quotient = Math.floor(product / 1_000_000);
  let remainder = product - quotient * 1_000_000;
  if (remainder < 0) {
    quotient--;
    remainder += 1_000_000;
  } else if (remainder >= 1_000_000) {
    quotient++;
    remainder -= 1_000_000;
  }
  return remainder > 0 ? quotient + 1 : quotient;
}
