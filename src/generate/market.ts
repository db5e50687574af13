/**
 * A deterministic, seeded synthetic Solana market: blocks, transactions (votes and non-votes with
 * compute budgets, priority fees and the accounts they write-lock) and DEX trades, as rows of the
 * canonical tables. The same seed and options give identical rows; the parts draw from separate
 * streams of the seed, so the price walks and trades' amounts do not change with `txPerBlock`, and
 * the write locks (accounts.ts) change nothing else.
 *
 * Time: one slot every 400 ms from `start`; a produced block's timestamp is
 * start + (slot - slot0) x 400 ms. About 3% of slots are skipped by their leader (never slot0); a
 * block's parent_slot is the previous produced slot, block_height counts produced blocks.
 */
import type { BlockRow, TokenRow, TradeRow, TransactionRow } from '../schema/tables.js';
import { AccountLocks } from './accounts.js';
import { BLOCK_CU_LIMIT, DEFAULT_SLOT0, DEFAULT_START, PAIRS, SLOT_NANOS, TOKENS, type TokenSpec } from './constants.js';
import { KeyPool, SignatureMaker } from './keys.js';
import { LeaderSchedule } from './leaders.js';
import { resolveMarket, type MarketProfile, type ResolvedMarket } from './profiles.js';
import { Rng } from './prng.js';
import { RegimeChain } from './regime.js';
import { assignTrades, TradeFlow, type PairPrice, type TradeSource } from './trades.js';
import { TransactionGenerator } from './transactions.js';
import { buildUniverse } from './universe.js';
import { WideTradeFlow } from './wide-flow.js';

/** Options of the synthetic market. */
export interface MarketOptions {
  /** Seed of every random stream (default 1); `42` and `"42"` are the same seed. */
  seed?: number | string;
  /** Time of slot0, ns since the Unix epoch (default 2026-01-01T00:00:00Z). */
  start?: bigint;
  /** Span of slots to cover (150 slots a minute), skipped slots included (default 1). Ignored when `blocks` is set. */
  minutes?: number;
  /** Number of blocks to produce (skipped slots not counted). */
  blocks?: number;
  /** First slot (default 388,000,000, mainnet-like for 2026). */
  slot0?: bigint;
  /** Mean transactions per block, votes included (default 1300; 1450 in the mainnet profile). Above ~5000 votes alone exceed the block CU limit. */
  txPerBlock?: number;
  /**
   * `default` (the three-pair demo market) or `mainnet` (1,500 tokens, 2,000 pairs, 300 swaps a second);
   * see profiles.ts. A size option below makes the market wide and overrides the profile's.
   */
  profile?: MarketProfile;
  /** Traded pairs of a wide market, the majors SOL/USDC, SOL/USDT and USDT/USDC included. */
  pairs?: number;
  /** Tokens of a wide market, the quotes SOL, USDC and USDT included (pairs / 3 + 2 to pairs). */
  tokens?: number;
  /** Mean swaps per second of a wide market. */
  swapsPerSecond?: number;
}

/** One produced block with its transactions (index order) and trades ((tx_index, fill_index) order). */
export interface GeneratedBlock {
  block: BlockRow;
  transactions: TransactionRow[];
  trades: TradeRow[];
  /**
   * Mid prices at this block, the generator's ground truth (not part of the tables): every pair of the
   * demo market; in a wide market SOL/USDC and the pairs that traded in the block.
   */
  midPrices: PairPrice[];
}

const VALIDATORS = 1_000;
const LEADERS = 24;
const WALLETS = 30_000;
const WALLET_SKEW = 3; // ~1% of wallets (bots) sign ~21% of non-vote transactions
const SLOTS_PER_MINUTE = 150;
const BLOCK_LIMIT = BigInt(BLOCK_CU_LIMIT);

/**
 * The token rows. Demo market: SOL, USDC, LENS (synthetic, in USDC) and PUPS (synthetic meme coin, in
 * SOL), the same for every seed. Wide market: SOL, USDC, USDT and the seed's synthetic tokens.
 */
export function generateTokens(options: MarketOptions = {}): TokenRow[] {
  const { size } = resolveMarket(options);
  const tokens: readonly TokenSpec[] = size ? buildUniverse(options.seed ?? 1, size).tokens : TOKENS;
  return tokens.map((t) => ({ mint: t.mint, name: t.name, symbol: t.symbol, decimals: t.decimals, supply: t.supply }));
}

/** Blocks of the synthetic market, one at a time (an hour is ~9,000 blocks and ~12M transactions). */
export function generateBlocks(options: MarketOptions = {}): Generator<GeneratedBlock> {
  checkOptions(options);
  return blocksOf(options, resolveMarket(options));
}

function* blocksOf(options: MarketOptions, { txPerBlock, size }: ResolvedMarket): Generator<GeneratedBlock> {
  const seed = options.seed ?? 1;
  const start = options.start ?? DEFAULT_START;
  const slot0 = options.slot0 ?? DEFAULT_SLOT0;
  const blockCount = options.blocks;
  const slotSpan = blockCount === undefined ? Math.round((options.minutes ?? 1) * SLOTS_PER_MINUTE) : Infinity;

  const keyRng = Rng.from(seed, 'keys');
  const validators = new KeyPool(keyRng, VALIDATORS);
  const wallets = new KeyPool(keyRng, WALLETS, WALLET_SKEW);
  const schedule = new LeaderSchedule(validators.keys.slice(0, LEADERS), Rng.from(seed, 'leaders'));
  const slotRng = Rng.from(seed, 'slots');
  const regime = new RegimeChain(Rng.from(seed, 'regime'));
  const universe = size ? buildUniverse(seed, size) : undefined;
  const flow: TradeSource = universe
    ? new WideTradeFlow(Rng.from(seed, 'market'), universe, size!.swapsPerSecond)
    : new TradeFlow(Rng.from(seed, 'market'));
  const locks = new AccountLocks(seed, validators, wallets, universe ? universe.pairs : PAIRS);
  const assignRng = Rng.from(seed, 'assign');
  const transactions = new TransactionGenerator(
    Rng.from(seed, 'transactions'),
    txPerBlock,
    validators,
    wallets,
    new SignatureMaker(Rng.from(seed, 'signatures')),
  );

  const slot0Number = Number(slot0);
  let parent = slot0 > 0n ? slot0 - 1n : 0n;
  let height = slot0 - slot0 / 16n;
  let produced = 0;
  for (let offset = 0; offset < slotSpan && produced !== blockCount; offset++) {
    regime.step();
    const params = regime.current;
    flow.step(params.volatility);
    const slotNumber = slot0Number + offset;
    if (offset > 0 && schedule.skips(slotNumber, slotRng)) continue;

    const slot = slot0 + BigInt(offset);
    const timestamp = start + BigInt(offset) * SLOT_NANOS;
    const block: BlockRow = {
      slot,
      timestamp,
      parent_slot: parent,
      block_height: height,
      leader: schedule.leaders[schedule.leaderIndex(slotNumber)],
      block_cu_limit: BLOCK_LIMIT,
    };
    const txs = transactions.generate(slot, slotNumber, params);
    const trades = assignTrades(flow.drafts(params.tradeRate), txs.rows, txs.swapIndexes, assignRng, slot, timestamp);
    locks.lock(txs, trades);
    yield { block, transactions: txs.rows, trades, midPrices: flow.midPrices() };
    parent = slot;
    height++;
    produced++;
  }
}

function checkOptions({ slot0 = DEFAULT_SLOT0, txPerBlock = 0, blocks, minutes, start = DEFAULT_START }: MarketOptions): void {
  if (typeof start !== 'bigint') throw new TypeError('start must be a bigint (ns since the Unix epoch)');
  if (typeof slot0 !== 'bigint') throw new TypeError('slot0 must be a bigint');
  if (slot0 < 0n || slot0 > BigInt(Number.MAX_SAFE_INTEGER) - 10n ** 9n) throw new RangeError(`slot0 out of range: ${slot0}`);
  if (!(Number.isFinite(txPerBlock) && txPerBlock >= 0 && txPerBlock <= 200_000)) throw new RangeError(`txPerBlock must be in [0, 200000]: ${txPerBlock}`);
  if (blocks !== undefined && !(Number.isInteger(blocks) && blocks >= 0)) throw new RangeError(`blocks must be a non-negative integer: ${blocks}`);
  if (minutes !== undefined && !(Number.isFinite(minutes) && minutes >= 0)) throw new RangeError(`minutes must be a non-negative number: ${minutes}`);
}
