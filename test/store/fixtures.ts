/** Canonical rows as Arrow tables (apache-arrow 21, built in the test) and small block generators. */
import { Bool, Field, Int64, List, Table, Uint32, Uint64, Uint8, Utf8, vectorFromArray, type DataType } from 'apache-arrow';
import { residentTransactions, type BlockRange } from '../../src/store/transaction-segments.js';
import { signatureAt } from '../../src/ingest/signature-values.js';
import type { CommitUnit } from '../../src/store/store.js';
import {
  TABLES, type BlockRow, type ColumnKind, type TableName, type TokenRow, type TradeRow, type TransactionRow,
} from '../../src/schema/tables.js';

export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const SOL = 'So11111111111111111111111111111111111111112';
export const BONK = 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263';

const ARROW: Record<ColumnKind, () => DataType> = {
  u64: () => new Uint64(),
  u32: () => new Uint32(),
  u8: () => new Uint8(),
  ns: () => new Int64(),
  utf8: () => new Utf8(),
  mint: () => new Utf8(),
  bool: () => new Bool(),
  keys: () => new List(new Field('item', new Utf8(), false)),
};

/** Plain rows of a canonical table as an Arrow table, typed from `TABLES`. */
export function canonicalTable(table: TableName, rows: readonly object[]): Table {
  const columns = Object.fromEntries(
    TABLES[table].columns.map((c) => [
      c.name,
      vectorFromArray(rows.map((r) => (r as Record<string, unknown>)[c.name] ?? null), ARROW[c.kind]()),
    ]),
  );
  return new Table(columns);
}

/** Nanoseconds of a slot in the generated chain: 400 ms slots from 2026-01-01. */
export const slotNs = (slot: bigint): bigint => 1_767_225_600_000_000_000n + slot * 400_000_000n;

/** One generated block: `txs` transactions and `fills` trades per transaction. */
export interface GeneratedBlock {
  blocks: BlockRow[];
  transactions: TransactionRow[];
  trades: TradeRow[];
}

export function generateBlock(slot: bigint, txs: number, fills = 1, pair: [string, string] = [SOL, USDC]): GeneratedBlock {
  const timestamp = slotNs(slot);
  const transactions: TransactionRow[] = [];
  const trades: TradeRow[] = [];
  for (let index = 0; index < txs; index++) {
    const signature = `sig-${slot}-${index}`;
    transactions.push({
      slot, index, signature, signer: `signer${index}`, program: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
      is_vote: false, failed: false, compute_unit_price: BigInt(index) * 1000n, compute_unit_limit: 200_000,
      compute_units_consumed: 150_000n, priority_fee: BigInt(index) * 200n,
    });
    for (let fill = 0; fill < fills; fill++) {
      trades.push({
        signature, signer: `signer${index}`, slot, tx_index: index, fill_index: fill, timestamp,
        base: pair[0], quote: pair[1], base_amount: 1_000_000_000n + BigInt(fill), quote_amount: 150_000_000n,
        base_decimals: 9, quote_decimals: 6, is_buy: fill % 2 === 0,
      });
    }
  }
  // block_height and block_cu_limit carry the expected row counts so a reader can check completeness in SQL.
  const blocks: BlockRow[] = [{
    slot, timestamp, parent_slot: slot - 1n, block_height: BigInt(trades.length), leader: null, block_cu_limit: BigInt(txs),
  }];
  return { blocks, transactions, trades };
}

/** The commit unit of a generated block: its block row for DuckDB, its transactions resident (its trades stay with the market). */
export function unitOf(block: GeneratedBlock): CommitUnit {
  return {
    blocks: canonicalTable('blocks', block.blocks),
    transactions: residentTransactions(canonicalTable('transactions', block.transactions), () => block.blocks[0]!.timestamp),
  };
}

export function token(mint: string, symbol: string, decimals: number, supply: bigint | null = null): TokenRow {
  return { mint, name: `${symbol} token`, symbol, decimals, supply };
}

/**
 * The resident transactions of held block ranges, read one by one (what the ranges hold, without
 * the store's code): each non-vote transaction's slot and index, and the kept text, block by block
 * (`kept`: positions among the rows listed here; block b's are kept[keptOffsets[b]..keptOffsets[b + 1])).
 */
export function heldRows(ranges: readonly BlockRange[]) {
  const out = { slots: [] as bigint[], index: [] as number[], keys: [] as string[], kept: [] as number[], keptOffsets: [0], signatures: [] as string[], signers: [] as string[], programs: [] as string[] };
  for (const { segment: { columns, kept, keptOffsets, text }, from, to } of ranges) {
    const base = out.slots.length - columns.offsets[from]!;
    for (let b = from; b < to; b++) {
      for (let i = columns.offsets[b]!; i < columns.offsets[b + 1]!; i++) {
        out.slots.push(columns.slots[b]!);
        out.index.push(columns.index[i]!);
        out.keys.push(`${columns.slots[b]}/${columns.index[i]}`);
      }
      for (let k = keptOffsets[b]!; k < keptOffsets[b + 1]!; k++) {
        out.kept.push(base + kept[k]!);
        out.signatures.push(signatureAt(text.signature, k));
        out.signers.push(text.keys.keyOf(text.signer[k]!));
        out.programs.push(text.keys.keyOf(text.program[k]!));
      }
      out.keptOffsets.push(out.kept.length);
    }
  }
  return out;
}
