/**
 * The oracle's answers: every method's result for given params, as of any time, from the data set
 * alone (data.ts) and the engine settings, through the record builders of fees.ts and market.ts.
 * Filtering, ordering and limits follow DESIGN.md 5 and docs/semantics.md; an as-of answer is
 * built from the rows before `at` only, so no look-ahead is possible by construction.
 */
import type { OracleData, OracleTrade } from './data.js';
import {
  blockFeesRecord, feeBlocks, feeWindows, recommendationRecord, topTransactions, type FeeBlock, type FeeSettings, type Wire,
} from './fees.js';
import { wireInt, wireTime, windowFloor, windowLength } from './format.js';
import { ids } from './ids.js';
import { blockTradesRecord, candles, pairBlocks, tokenRecord, tradeRecord, trailingPoints, type MarketSettings, type PairBlock } from './market.js';

/** Settings of the engine under test, as the oracle needs them. */
export interface OracleSettings extends FeeSettings, MarketSettings {
  /** Retention of raw transactions (ns); undefined keeps everything. */
  retainNs?: bigint;
}

/** Query params in the oracle's terms: times as nanoseconds. */
export interface OracleParams {
  window?: string;
  limit?: number;
  at?: bigint;
  base?: string;
  quote?: string;
  from?: bigint;
  to?: bigint;
  mint?: string;
}

/** An answer: records, or the JSON-RPC error (code and param) the engine must give. */
export type OracleAnswer = Wire[] | { error: number; param: string };

const bySlotDesc = (a: bigint, b: bigint) => (a > b ? -1 : a < b ? 1 : 0);
const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** The methods whose history retention drops with the transactions. */
export const MARKET_HISTORY = new Set(['block', 'ohlcv', 'volume', 'vwap', 'twap', 'trades'].map((m) => `chain::market::${m}`));
/** The methods listing stored records: retention drops those of blocks before the cut (and the fee windows ended by it). */
export const RECORD_LISTS = new Set(['chain::priorityfee::block', 'chain::priorityfee::fee', 'chain::priorityfee::recommendation', 'chain::market::ingestion']);
const before = (at: bigint | undefined) => (time: bigint) => at === undefined || time < at;

export class Oracle {
  readonly #data: OracleData;
  readonly #settings: OracleSettings;
  readonly #feeBlocks: FeeBlock[];
  readonly #pairBlocks: PairBlock[];
  readonly #recommendations = new Map<string, Wire[]>();
  readonly #trailing = new Map<string, { time: bigint; slot: bigint; base: string; quote: string; points: { volume: Wire; vwap: Wire; twap: Wire } }[]>();

  constructor(data: OracleData, settings: OracleSettings) {
    this.#data = data;
    this.#settings = settings;
    this.#feeBlocks = feeBlocks(data.blocks, data.transactions);
    this.#pairBlocks = pairBlocks(data.trades, settings);
  }

  /** The answer of `method` to `params` (defaults as the seed's section 8 and DESIGN.md 5). */
  answer(method: string, params: OracleParams = {}): OracleAnswer {
    const at = params.at;
    const kept = before(at);
    const limit = (fallback: number) => params.limit ?? fallback;
    const pairMatch = (x: { base: string; quote: string }) =>
      (params.base === undefined || x.base === params.base) && (params.quote === undefined || x.quote === params.quote);
    const fees = this.#feeBlocks.filter((b) => kept(b.time));
    // retention drops the market's history and the stored records before the cut (no window was live
    // when it pruned, so the market's blocks too): lists end there; an `at` at or before it, and a
    // window reaching behind it, are refused
    const cut = MARKET_HISTORY.has(method) || RECORD_LISTS.has(method) ? this.transactionsFrom() : undefined;
    const held = (time: bigint) => cut === undefined || time >= cut;
    if (cut !== undefined && at !== undefined && at <= cut) return { error: -32602, param: 'at' };
    switch (method) {
      case 'chain::priorityfee::block':
        return fees.filter((b) => held(b.time)).reverse().slice(0, limit(1)).map(blockFeesRecord);
      case 'chain::priorityfee::fee': {
        const window = params.window ?? '1m';
        const newest = fees[fees.length - 1];
        if (at !== undefined && newest && this.#pruned(windowFloor(newest.time, windowLength(window)))) return { error: -32602, param: 'at' };
        const ended = (b: FeeBlock) => !held(windowFloor(b.time, windowLength(window)) + windowLength(window) - 1n);
        return feeWindows(window, fees.filter((b) => !ended(b)), this.#settings).slice(0, limit(1));
      }
      case 'chain::priorityfee::recommendation':
        return this.#recommendationsOf(params.window ?? '1m').slice(0, fees.length).filter((_, j) => held(fees[j]!.time)).reverse().slice(0, limit(1));
      case 'chain::priorityfee::top_txs': {
        const newest = fees[fees.length - 1];
        if (at !== undefined && newest && this.#pruned(newest.time + 1n - windowLength('5m'))) return { error: -32602, param: 'at' };
        return topTransactions(fees, limit(100));
      }
      case 'chain::market::block':
        return this.#pairBlocks
          .filter((x) => kept(x.time) && held(x.time) && pairMatch(x))
          .sort((a, b) => bySlotDesc(a.slot, b.slot) || text(a.base, b.base) || text(a.quote, b.quote))
          .slice(0, limit(100))
          .map(blockTradesRecord);
      case 'chain::market::ohlcv': {
        const width = windowLength(params.window!);
        if (at !== undefined && !held(windowFloor(at - 1n, width))) return { error: -32602, param: 'at' };
        const all: { start: bigint; base: string; quote: string; record: Wire }[] = [];
        for (const [base, quote] of this.#pairs().filter(([base, quote]) => pairMatch({ base, quote }))) {
          const list = this.#pairBlocks.filter((x) => x.base === base && x.quote === quote && kept(x.time));
          for (const c of candles(list, params.window!)) all.push({ ...c, base, quote });
        }
        return all
          .filter((c) => held(c.start + width - 1n))
          .filter((c) => (params.from === undefined || c.start >= params.from) && (params.to === undefined || c.start < params.to))
          .sort((a, b) => bySlotDesc(a.start, b.start) || text(a.base, b.base) || text(a.quote, b.quote))
          .slice(0, limit(5000))
          .map((c) => c.record);
      }
      case 'chain::market::volume':
      case 'chain::market::vwap':
      case 'chain::market::twap': {
        const kind = method.slice('chain::market::'.length) as 'volume' | 'vwap' | 'twap';
        const width = windowLength(params.window!);
        const end = at ?? this.#pairBlocks.reduce((newest, x) => (x.time > newest ? x.time : newest), 0n) + 1n;
        if (!held(end - width)) return { error: -32602, param: at === undefined ? 'window' : 'at' };
        return this.#trailingOf(params.window!)
          .filter((p) => kept(p.time) && held(p.time) && held(p.time + 1n - width) && pairMatch(p))
          .sort((a, b) => bySlotDesc(a.time, b.time) || bySlotDesc(a.slot, b.slot) || text(a.base, b.base) || text(a.quote, b.quote))
          .slice(0, limit(100))
          .map((p) => p.points[kind]);
      }
      case 'chain::market::trades':
        return this.#data.trades
          .filter((t) => kept(t.timestamp) && held(t.timestamp) && pairMatch(t))
          .sort((a, b) => bySlotDesc(a.slot, b.slot) || b.tx_index - a.tx_index || b.fill_index - a.fill_index)
          .slice(0, limit(100))
          .map(tradeRecord);
      case 'chain::market::token':
        return this.#data.tokens
          .filter((t) => params.mint === undefined || t.mint === params.mint)
          .sort((a, b) => text(a.mint, b.mint))
          .map(tokenRecord);
      case 'chain::market::ingestion':
        return this.ingestion(at, cut).slice(0, at === undefined ? 300 : Infinity).slice(0, limit(60));
      default:
        throw new Error(`no oracle for ${method}`);
    }
  }

  /** The deterministic fields of chain::market::ingestion (all but started_at and took), newest slot first, of the slots from `from` on. */
  ingestion(at?: bigint, from?: bigint): Wire[] {
    const slots = new Map<bigint, { time: bigint; records: number }>();
    const add = (slot: bigint, time: bigint) => {
      const entry = slots.get(slot);
      if (entry) entry.records++;
      else slots.set(slot, { time, records: 1 });
    };
    for (const b of this.#data.blocks) add(b.slot, b.timestamp);
    for (const tx of this.#data.transactions) add(tx.slot, 0n);
    for (const t of this.#data.trades) add(t.slot, t.timestamp);
    return [...slots]
      .filter(([, s]) => (at === undefined || s.time < at) && (from === undefined || s.time >= from))
      .sort(([a], [b]) => bySlotDesc(a, b))
      .map(([slot, s]) => ({ id: ids.ingestion(slot), slot: wireInt(slot), timestamp: wireTime(s.time), batches: '1', records: wireInt(s.records) }));
  }

  /** The traded pairs, [base, quote]. */
  #pairs(): [string, string][] {
    const seen = new Map<string, [string, string]>();
    for (const t of this.#data.trades) seen.set(`${t.base}|${t.quote}`, [t.base, t.quote]);
    return [...seen.values()];
  }

  /** Whether an as-of answer reading transactions from `from` on needs pruned ones. */
  #pruned(from: bigint): boolean {
    const cut = this.transactionsFrom();
    return cut !== undefined && from < cut;
  }

  /**
   * The time before which retention has deleted the transactions, trades and market blocks (docs/semantics.md, Retention):
   * newest block time - R rounded down to a step of min(R, 1 minute), once it is past the first block.
   */
  transactionsFrom(): bigint | undefined {
    const retain = this.#settings.retainNs;
    if (retain === undefined) return undefined;
    const times = this.#data.blocks.map((b) => b.timestamp);
    const step = retain < 60_000_000_000n ? retain : 60_000_000_000n;
    const cut = windowFloor(times[times.length - 1]! - retain, step);
    return cut > times[0]! ? cut : undefined;
  }

  /** Every recommendation point of `window`, one per fee block, oldest first. */
  #recommendationsOf(window: string): Wire[] {
    let points = this.#recommendations.get(window);
    if (!points) {
      points = this.#feeBlocks.map((_, j) => recommendationRecord(window, this.#feeBlocks, j, this.#settings));
      this.#recommendations.set(window, points);
    }
    return points;
  }

  #trailingOf(window: string) {
    let points = this.#trailing.get(window);
    if (!points) {
      points = [];
      for (const [base, quote] of this.#pairs()) {
        const list = this.#pairBlocks.filter((x) => x.base === base && x.quote === quote);
        trailingPoints(list, window).forEach((p, i) => points!.push({ time: list[i]!.time, slot: list[i]!.slot, base, quote, points: p }));
      }
      this.#trailing.set(window, points);
    }
    return points;
  }
}

export type { OracleTrade };
