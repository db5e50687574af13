/**
 * The accounts a synthetic transaction write-locks (`writable_accounts`), drawn after the block's
 * trades are attached so that a swap locks the pools of the pairs it traded. Every draw comes from
 * the seed's own `accounts` stream: the other columns, the trades and every other stream are the same
 * as without the accounts. `readonly_accounts` stays null: local fee markets need only the write
 * locks, and the read-only lists (programs, sysvars, mints, oracles) would multiply a dump's size.
 *
 * Shapes (the fee payer, `signer`, always first: it is always write-locked; no key twice):
 * - Vote: the signer and its vote account (one per validator key, fixed for the seed).
 * - Swap program (Jupiter, Raydium, Orca, Meteora, Phoenix, pump.fun), per fill it carries: one pool
 *   of the fill's pair and the signer's token accounts for the pair's two mints. A pair has 3 pools
 *   (activity rank 0), 2 (ranks 1-9) or 1, chosen 60/30/10 or 70/30 per swap; a pool key is a fixed
 *   function of the pair's mints and its number (`poolKey`), the same for every seed, as a program
 *   address derived from the mints would be. A swap-program transaction without a fill (failed, or a
 *   fill the trades table does not hold) locks the same for a pair drawn from the pairs' activity
 *   weights, or with probability 12 / (pairs + 12) for a pair the market does not track (an
 *   app-state account as its pool, most of the demo market's swaps). 25% of Jupiter transactions
 *   route through one more pool (a hop); every pump.fun transaction locks pump.fun's fee account and
 *   15% of Jupiter transactions Jupiter's fee account (`programStateKey`): a few very hot accounts.
 * - Other programs: 0-3 app-state accounts (30/35/22/13%), drawn Zipf-like (weight 1 / (rank + 1))
 *   from 4,000 seeded keys; a token-program transaction also locks the signer's and a recipient's
 *   token accounts for one mint (the associated-token program: one account to create), a system
 *   transfer a recipient wallet (60%), and 10% of system and memo transactions a token account of
 *   the signer.
 * - Hotness follows the price: a draw from a heavy-tailed table (the pair of a swap without a fill,
 *   an app-state account) takes the rank of u^g for uniform u, g = clamp(1 + 0.35 x (log10(price) -
 *   4), 0.6, 3) (0.6 without a price): a transaction paying 10k micro-lamports/CU draws by the
 *   weights, one paying 1M reaches the head ~2.5 times more often (P(rank 0) = w0^(1/g)), an
 *   unpriced one ~4 times less. Prices are never changed (the global distribution is that of
 *   transactions.ts, and a fill's pair is the trade's); the local markets of the hottest accounts sit
 *   above it. Mainnet profile, seed 1, 2 minutes: pump.fun's fee account is written by ~8.4% of the
 *   non-vote transactions (the hottest account in most blocks), SOL/USDC's first pool and the
 *   hottest app-state account by ~5% each, at a median price ~4.5x the non-vote median (50k vs 11k).
 * - A token account is a fixed function of (wallet, mint) (`DerivedKeys`: base58 digits drawn from a
 *   keyed hash, no byte encoding per transaction); every other key is encoded once and reused.
 */
import type { TradeRow } from '../schema/tables.js';
import type { GeneratedBlock } from './market.js';
import { PROGRAM_MIX, PROGRAMS, SOL_MINT, type PairSpec } from './constants.js';
import { DerivedKeys, randomPublicKey, type KeyPool } from './keys.js';
import { cumulative, Rng } from './prng.js';
import type { BlockTransactions } from './transactions.js';
import { pickPair } from './universe.js';

/** App-state accounts (programs' shared state) non-swap transactions draw from. */
export const APP_STATE_ACCOUNTS = 4_000;
const APP_STATE_COUNTS = cumulative([30, 35, 22, 13]);
const RECIPIENT_SHARE = 0.6;
const TOKEN_ACCOUNT_SHARE = 0.1;
const HOP_SHARE = 0.25;
/** A swap without a fill trades an untracked pair with probability UNTRACKED / (pairs + UNTRACKED). */
const UNTRACKED = 12;
const POOL_SHARES = [cumulative([1]), cumulative([7, 3]), cumulative([6, 3, 1])];
const MIN_TILT = 0.6;
const MAX_TILT = 3;
const TILT_PER_DECADE = 0.35;

/** The pools of the pair of activity rank `rank`: 3 for the busiest pair, 2 for the next nine, else 1. */
export function poolCount(rank: number): number {
  return rank === 0 ? 3 : rank < 10 ? 2 : 1;
}

/** Pool `k` of the pair base/quote: the same key for every seed. */
export function poolKey(base: string, quote: string, k: number): string {
  return randomPublicKey(Rng.from('chainlens', `pool:${base}/${quote}/${k}`));
}

/** The shared state account a program's transactions write (a fee account): the same key for every seed. */
export function programStateKey(program: string): string {
  return randomPublicKey(Rng.from('chainlens', `state:${program}`));
}

/** Programs whose transactions write a shared state account, and the share of them that do. */
const PROGRAM_STATE = new Map<string, number>([[PROGRAMS.pumpFun, 1], [PROGRAMS.jupiter, 0.15]]);

/** The hot-draw exponent of a transaction paying `price` micro-lamports/CU (see the module comment). */
export function hotTilt(price: number): number {
  if (!(price > 0)) return MIN_TILT;
  return Math.min(MAX_TILT, Math.max(MIN_TILT, 1 + TILT_PER_DECADE * (Math.log10(price) - 4)));
}

// What a program's transactions lock beyond the signer.
const SWAP = 0;
const SYSTEM = 1;
const TOKEN = 2;
const CREATE_TOKEN_ACCOUNT = 3;
const MEMO = 4;

function kindOf(program: string, swaps: boolean): number {
  if (swaps) return SWAP;
  if (program === PROGRAMS.system) return SYSTEM;
  if (program === PROGRAMS.token || program === PROGRAMS.token2022) return TOKEN;
  if (program === PROGRAMS.associatedToken) return CREATE_TOKEN_ACCOUNT;
  return MEMO;
}

const KINDS = PROGRAM_MIX.map((p) => kindOf(p.id, p.swaps));
const IS_JUPITER = PROGRAM_MIX.map((p) => p.id === PROGRAMS.jupiter);

/** Fills the write locks of generated blocks for one run. */
export class AccountLocks {
  private readonly rng: Rng;
  private readonly wallets: KeyPool;
  private readonly derived: DerivedKeys;
  /** Vote account of each validator key. */
  readonly voteAccounts: readonly string[];
  /** App-state accounts, hottest first. */
  readonly appState: readonly string[];
  private readonly appWeights: Float64Array;
  /** The pairs by activity rank (the busiest first). */
  readonly pairs: readonly PairSpec[];
  private readonly pairWeights: Float64Array;
  private readonly pools: (readonly string[] | undefined)[];
  private readonly rankOf = new Map<string, Map<string, number>>();
  private readonly mints = new Map<string, number>();
  private readonly baseMint: Int32Array;
  private readonly quoteMint: Int32Array;
  private readonly solMint: number;
  private readonly untrackedShare: number;
  private readonly state: (readonly [key: string, share: number] | undefined)[];

  /**
   * Locks for the blocks of `seed`: votes signed by keys of `validators`, non-votes by `wallets`,
   * swaps over `pairs` (any order: ranked here by `tradesPerBlock`).
   */
  constructor(seed: number | string, validators: KeyPool, wallets: KeyPool, pairs: readonly PairSpec[]) {
    this.rng = Rng.from(seed, 'accounts');
    const keyRng = Rng.from(seed, 'account-keys');
    this.wallets = wallets;
    this.voteAccounts = validators.keys.map(() => randomPublicKey(keyRng));
    this.appState = Array.from({ length: APP_STATE_ACCOUNTS }, () => randomPublicKey(keyRng));
    this.appWeights = cumulative(this.appState.map((_, rank) => 1 / (rank + 1)));
    this.derived = new DerivedKeys(keyRng);

    const ranked = pairs.map((pair, i) => ({ pair, i })).sort((a, b) => b.pair.tradesPerBlock - a.pair.tradesPerBlock || a.i - b.i);
    this.pairs = ranked.map((r) => r.pair);
    this.pairWeights = cumulative(this.pairs.map((p) => Math.max(p.tradesPerBlock, 1e-12)));
    this.pools = new Array(this.pairs.length).fill(undefined);
    const mintOf = (mint: string): number => {
      let index = this.mints.get(mint);
      if (index === undefined) this.mints.set(mint, (index = this.mints.size));
      return index;
    };
    this.solMint = mintOf(SOL_MINT);
    this.baseMint = Int32Array.from(this.pairs, (p) => mintOf(p.base.mint));
    this.quoteMint = Int32Array.from(this.pairs, (p) => mintOf(p.quote.mint));
    this.pairs.forEach((p, rank) => {
      let quotes = this.rankOf.get(p.base.mint);
      if (!quotes) this.rankOf.set(p.base.mint, (quotes = new Map()));
      if (!quotes.has(p.quote.mint)) quotes.set(p.quote.mint, rank);
    });
    this.untrackedShare = UNTRACKED / (this.pairs.length + UNTRACKED);
    this.state = PROGRAM_MIX.map((p) => {
      const share = PROGRAM_STATE.get(p.id);
      return share === undefined ? undefined : [programStateKey(p.id), share] as const;
    });
  }

  /** The pools of the pair of activity rank `rank` (made on first use). */
  poolsOf(rank: number): readonly string[] {
    let pools = this.pools[rank];
    if (!pools) {
      const { base, quote } = this.pairs[rank];
      pools = Array.from({ length: poolCount(rank) }, (_, k) => poolKey(base.mint, quote.mint, k));
      this.pools[rank] = pools;
    }
    return pools;
  }

  /** The activity rank of the pair base/quote, or -1. */
  rank(base: string, quote: string): number {
    return this.rankOf.get(base)?.get(quote) ?? -1;
  }

  /** Sets `writable_accounts` on every row of `block`; `trades` are its fills in (tx_index, fill_index) order. */
  lock(block: BlockTransactions, trades: readonly TradeRow[]): void {
    const { rows, signers, programs, prices } = block;
    const rng = this.rng;
    let t = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const program = programs[i];
      if (program < 0) {
        row.writable_accounts = [row.signer, this.voteAccounts[signers[i]]];
        continue;
      }
      const out = [row.signer];
      const wallet = signers[i];
      const tilt = hotTilt(prices[i]);
      switch (KINDS[program]) {
        case SWAP: {
          let fills = 0;
          for (; t < trades.length && trades[t].tx_index === i; t++, fills++) {
            const trade = trades[t];
            const rank = this.rank(trade.base, trade.quote);
            if (rank >= 0) this.swap(out, wallet, rank);
          }
          if (fills === 0) {
            if (rng.float() < this.untrackedShare) {
              const pool = this.hot(this.appWeights, tilt);
              push(out, this.appState[pool]);
              push(out, this.tokenAccount(wallet, this.mints.size + pool));
              push(out, this.tokenAccount(wallet, this.solMint));
            } else {
              this.swap(out, wallet, this.hot(this.pairWeights, tilt));
            }
          }
          if (IS_JUPITER[program] && fills < 2 && rng.float() < HOP_SHARE) push(out, this.pool(this.hot(this.pairWeights, tilt)));
          const state = this.state[program];
          if (state && (state[1] >= 1 || rng.float() < state[1])) push(out, state[0]);
          break;
        }
        case TOKEN: {
          const mint = this.mint();
          push(out, this.tokenAccount(wallet, mint));
          push(out, this.tokenAccount(this.wallets.pickIndex(rng), mint));
          this.appStateAccounts(out, tilt);
          break;
        }
        case CREATE_TOKEN_ACCOUNT:
          push(out, this.tokenAccount(rng.float() < 0.5 ? wallet : this.wallets.pickIndex(rng), this.mint()));
          this.appStateAccounts(out, tilt);
          break;
        default: // system and memo
          if (KINDS[program] === SYSTEM && rng.float() < RECIPIENT_SHARE) push(out, this.wallets.keys[this.wallets.pickIndex(rng)]);
          if (rng.float() < TOKEN_ACCOUNT_SHARE) push(out, this.tokenAccount(wallet, this.mint()));
          this.appStateAccounts(out, tilt);
      }
      row.writable_accounts = out;
    }
  }

  /** `wallet`'s token account for mint `mint` (the mints, then one token per untracked pair's pool). */
  private tokenAccount(wallet: number, mint: number): string {
    return this.derived.key(wallet, mint);
  }

  /** One fill's locks: a pool of the pair of `rank` and `wallet`'s token accounts for its mints. */
  private swap(out: string[], wallet: number, rank: number): void {
    push(out, this.pool(rank));
    push(out, this.tokenAccount(wallet, this.baseMint[rank]));
    push(out, this.tokenAccount(wallet, this.quoteMint[rank]));
  }

  /** One of the pools of the pair of `rank`. */
  private pool(rank: number): string {
    const pools = this.poolsOf(rank);
    return pools.length === 1 ? pools[0] : pools[this.rng.pick(POOL_SHARES[pools.length - 1])];
  }

  /** A mint by the pairs' activity (the base or the quote of a pair). */
  private mint(): number {
    const rank = pickPair(this.pairWeights, this.rng.float());
    return this.rng.float() < 0.5 ? this.baseMint[rank] : this.quoteMint[rank];
  }

  /** 0-3 app-state accounts. */
  private appStateAccounts(out: string[], tilt: number): void {
    const count = this.rng.pick(APP_STATE_COUNTS);
    for (let k = 0; k < count; k++) push(out, this.appState[this.hot(this.appWeights, tilt)]);
  }

  /** A rank drawn from cumulative weights (hottest first), tilted toward the head by `tilt` > 1. */
  private hot(weights: Float64Array, tilt: number): number {
    return pickPair(weights, this.rng.float() ** tilt);
  }
}

/** Appends `key` unless the list holds it. */
function push(out: string[], key: string): void {
  for (let i = 0; i < out.length; i++) if (out[i] === key) return;
  out.push(key);
}

/** The accounts that the most non-vote transactions of `blocks` write-lock, busiest first: local markets worth asking about. */
export function busiestAccounts(blocks: Iterable<GeneratedBlock>, count: number): string[] {
  const locks = new Map<string, number>();
  for (const { transactions } of blocks) {
    for (const tx of transactions) {
      if (!tx.is_vote) for (const key of tx.writable_accounts ?? []) locks.set(key, (locks.get(key) ?? 0) + 1);
    }
  }
  return [...locks].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key]) => key);
}
