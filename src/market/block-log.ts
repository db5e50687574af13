/**
 * chain::market::block: the per-(slot, pair) records are made once at ingest, committed with their
 * block into the store's block_trades table (immutable, so as-of is `"timestamp" < at`), and the
 * newest 1000 kept in memory so that live answers (and as-of answers about recent blocks) need no
 * store round trip. Order: slot descending, then base and quote ascending.
 */
import { BlockTrades, type BlockTradesRecord } from '../schema/records.js';
import { recordTableName } from '../store/ddl.js';
import { rowToRecord } from '../store/record-ipc.js';
import { sqlInteger, sqlString } from '../store/sql.js';
import type { Store } from '../store/store.js';
import { compareText } from './chunk-trades.js';
import type { PairFilter } from './pairs.js';
import { matchesPair } from './pairs.js';

/** Newest records answered from memory (the method's largest limit). */
const RECENT = 1000;
/** The store table of chain::market::block records. */
export const BLOCK_TRADES_TABLE = recordTableName(BlockTrades);

/** Answer order reversed: slot ascending, then base and quote descending (so the newest is last). */
const memoryOrder = (a: BlockTradesRecord, b: BlockTradesRecord): number =>
  a.slot !== b.slot ? (BigInt(a.slot!) < BigInt(b.slot!) ? -1 : 1) : compareText(b.base, a.base) || compareText(b.quote, a.quote);

/** The block records: the newest in memory, all in the store. */
export class BlockLog {
  /** In memoryOrder: the newest record last. */
  #recent: BlockTradesRecord[] = [];
  /** Whether every record ever made is in #recent. */
  #complete = true;

  /** Publishes a committed chunk's records. */
  append(records: readonly BlockTradesRecord[]): void {
    this.#recent.push(...[...records].sort(memoryOrder));
    if (this.#recent.length > RECENT) {
      this.#recent.splice(0, this.#recent.length - RECENT);
      this.#complete = false;
    }
  }

  /**
   * The newest `limit` records of the matching pairs with timestamp < at (all when at is omitted).
   * `fromSlot`: no answer record is older (lets the store scan only the newest slots).
   */
  async records(store: Store | undefined, filter: PairFilter, limit: number, at?: bigint, fromSlot?: bigint): Promise<BlockTradesRecord[]> {
    if (!store) return [];
    const out: BlockTradesRecord[] = [];
    for (let i = this.#recent.length - 1; i >= 0 && out.length < limit; i--) {
      const r = this.#recent[i]!;
      if ((at === undefined || r.timestamp < at) && matchesPair(filter, r.base, r.quote)) out.push(r);
    }
    if (out.length === limit || this.#complete) return out;
    const where: string[] = [];
    if (fromSlot !== undefined) where.push(`slot >= ${sqlInteger(fromSlot)}`);
    if (at !== undefined) where.push(`"timestamp" < ${sqlInteger(at)}`);
    if (filter.base !== undefined) where.push(`base = ${sqlString(filter.base)}`);
    if (filter.quote !== undefined) where.push(`quote = ${sqlString(filter.quote)}`);
    const rows = await store.rows(
      `SELECT * FROM ${BLOCK_TRADES_TABLE}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}` +
        ` ORDER BY slot DESC, base, quote LIMIT ${limit}`,
    );
    return rows.map((row) => rowToRecord(BlockTrades, row));
  }
}
