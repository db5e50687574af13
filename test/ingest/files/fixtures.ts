/** Seeded canonical rows of every table for the file tests, with the awkward values included. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBase58 } from '../../../src/schema/base58.js';
import type { TableName } from '../../../src/schema/tables.js';
import type { RowOf } from '../../../src/ingest/arrow.js';
import { tableToRows } from '../../../src/ingest/arrow.js';
import { readTableFile, type ReadTableOptions, type TableFileInput } from '../../../src/ingest/files/read.js';
import type { Rejection, ValidatedBatch } from '../../../src/ingest/validate.js';
import { mulberry32 } from '../../helpers/prng.js';

/** A small seeded PRNG, enough for test data. */
export const prng = mulberry32;

export const MAX_U64 = (1n << 64n) - 1n;
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
export const SOL = 'So11111111111111111111111111111111111111112';

/** Generators of awkward-but-valid values. */
export function values(seed: number) {
  const random = prng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const key = () => encodeBase58(Uint8Array.from({ length: 32 }, () => int(256)));
  const keys = Array.from({ length: 16 }, key);
  const pick = <T>(list: readonly T[]) => list[int(list.length)];
  const u64 = (): bigint => pick([
    () => BigInt(int(1_000_000)),
    () => (1n << 53n) + BigInt(int(1000)), // just above 2^53: a float would round these
    () => MAX_U64 - BigInt(int(3)), // near 2^64 - 1
    () => BigInt(int(2 ** 31)) * BigInt(int(2 ** 31)) + BigInt(int(2 ** 31)),
  ])();
  const ns = (): bigint => 1_704_067_200_000_000_000n + BigInt(int(2 ** 30)) * 1_000_000_000n + BigInt(int(1e9));
  const text = (): string => pick(['plain', 'with, comma', 'with "quotes"', 'two\nlines', 'crlf\r\nline', '', ' padded ', 'ünïcødé 🚀', 'tab\there']);
  const maybe = <T>(make: () => T): T | null => (random() < 0.25 ? null : make());
  // empty, one, a few, and the most a transaction can load
  const keyList = (): string[] => Array.from({ length: pick([0, 1, 3, 7, 256]) }, () => pick(keys));
  return { random, int, key, keys, pick, u64, ns, text, maybe, keyList };
}

/** `count` seeded rows of `table`, every optional column present (null or a value). */
export function makeRows<T extends TableName>(table: T, count: number, seed = 1): RowOf<T>[] {
  const v = values(seed);
  const rows: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const slot = 250_000_000n + BigInt(i);
    switch (table) {
      case 'blocks':
        rows.push({
          slot, timestamp: v.ns(), parent_slot: v.maybe(() => slot - 1n), block_height: v.maybe(v.u64),
          leader: v.maybe(() => v.pick(v.keys)), block_cu_limit: v.maybe(v.u64),
        });
        break;
      case 'transactions':
        rows.push({
          slot, index: v.int(2 ** 32), signature: v.key() + v.key(), signer: v.key(), program: v.pick(v.keys),
          is_vote: v.random() < 0.3, failed: v.random() < 0.1, compute_unit_price: v.u64(),
          compute_unit_limit: v.pick([0, 200_000, 1_400_000, 2 ** 32 - 1]), compute_units_consumed: v.u64(),
          priority_fee: v.maybe(v.u64), writable_accounts: v.maybe(v.keyList), readonly_accounts: v.maybe(v.keyList),
        });
        break;
      case 'trades':
        rows.push({
          signature: v.key() + v.key(), signer: v.pick(v.keys), slot, tx_index: v.int(5000), fill_index: v.int(4),
          timestamp: v.ns(), base: v.pick(v.keys), quote: v.pick([USDC, SOL]), base_amount: v.u64() || 1n,
          quote_amount: v.u64() || 1n, base_decimals: v.int(256), quote_decimals: v.pick([6, 9, 255, 0]), is_buy: v.random() < 0.5,
        });
        break;
      case 'tokens':
        rows.push({ mint: v.key(), name: v.text(), symbol: v.text(), decimals: v.int(256), supply: v.maybe(v.u64) });
        break;
    }
  }
  return rows as RowOf<T>[];
}

/** A fresh temporary directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'chainlens-files-'));
}

/** Everything a file read gives: batches, all rows (via tableToRows), all rejections. */
export async function readAll<T extends TableName>(input: TableFileInput, options?: ReadTableOptions) {
  const batches: ValidatedBatch[] = [];
  for await (const batch of readTableFile(input, options)) batches.push(batch);
  const rows = batches.flatMap((batch) => tableToRows(batch.table as T, batch.rows));
  const rejections: Rejection[] = batches.flatMap((batch) => batch.rejections);
  const read = batches.reduce((n, batch) => n + batch.read, 0);
  return { batches, rows, rejections, read, table: batches[0]?.table };
}

/** Bytes of a text. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
