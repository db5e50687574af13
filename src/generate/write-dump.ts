/**
 * Writes a generated market as a dump: one file per canonical table, streamed in chunks so that
 * an hour of blocks (about 12M transactions) never sits in memory at once.
 */
import type { TableWriter } from '../ingest/files/write.js';
import type { TableName } from '../schema/tables.js';
import { generateBlocks, generateTokens, type MarketOptions } from './market.js';

/** Opens the writer of one table's file. */
export type WriterFactory = <T extends TableName>(table: T) => Promise<TableWriter<T>>;

/** Counts written per table. */
export type DumpCounts = Record<TableName, number>;

/** Rows per chunk handed to a writer (a Parquet row group, an Arrow record batch). */
const CHUNK_ROWS = 65_536;

/** Generates the market of `options` and writes it; `onBlock` reports progress (blocks written, total). */
export async function writeDump(
  options: MarketOptions, open: WriterFactory, onBlock?: (done: number, slot: bigint) => void,
): Promise<DumpCounts> {
  const blocks = generateBlocks(options); // bad options throw here, before any file is created
  const counts: DumpCounts = { blocks: 0, transactions: 0, trades: 0, tokens: 0 };
  const rows = generateTokens(options);
  const tokens = await open('tokens');
  await tokens.write(rows);
  await tokens.close();
  counts.tokens = rows.length;

  const writers = { blocks: await open('blocks'), transactions: await open('transactions'), trades: await open('trades') };
  const pending = { blocks: [] as object[], transactions: [] as object[], trades: [] as object[] };
  const flush = async (table: keyof typeof writers, force = false) => {
    if (pending[table].length === 0 || (!force && pending[table].length < CHUNK_ROWS)) return;
    await writers[table].write(pending[table] as never);
    counts[table] += pending[table].length;
    pending[table] = [];
  };
  let done = 0;
  for (const generated of blocks) {
    pending.blocks.push(generated.block);
    for (const tx of generated.transactions) pending.transactions.push(tx);
    for (const trade of generated.trades) pending.trades.push(trade);
    for (const table of ['blocks', 'transactions', 'trades'] as const) await flush(table);
    onBlock?.(++done, generated.block.slot);
  }
  for (const table of ['blocks', 'transactions', 'trades'] as const) {
    await flush(table, true);
    await writers[table].close();
  }
  return counts;
}
