/**
 * Duplicate rows by key: a transaction is (slot, index), a trade fill (slot, tx_index, fill_index).
 * The first row of a key is kept; every later one is a repeat. Linear when the rows come in key
 * order (as every dump we write and the chain's own order are), a sort otherwise.
 */
import { compareU64, wordsOf } from '../schema/u64-words.js';

/** Rows (ascending) whose key, the slot and then `keys`, equals an earlier row's; only rows with `live[i]` take part. */
export function repeatedRows(slots: BigUint64Array, keys: readonly ArrayLike<number>[], live?: Uint8Array): number[] {
  const words = wordsOf(slots);
  const compare = (a: number, b: number): number => {
    const bySlot = compareU64(words, a, b);
    if (bySlot !== 0) return bySlot;
    for (const k of keys) if (k[a] !== k[b]) return k[a]! - k[b]!;
    return 0;
  };
  const taking = (i: number) => !live || live[i] === 1;
  // the usual case, rows in strict key order: one pass, nothing allocated
  let previous = -1;
  let ordered = true;
  for (let i = 0; i < slots.length && ordered; i++) {
    if (!taking(i)) continue;
    ordered = previous < 0 || compare(previous, i) < 0;
    previous = i;
  }
  if (ordered) return [];
  const rows: number[] = [];
  for (let i = 0; i < slots.length; i++) if (taking(i)) rows.push(i);
  rows.sort((a, b) => compare(a, b) || a - b);
  const repeats: number[] = [];
  for (let j = 1; j < rows.length; j++) if (compare(rows[j - 1]!, rows[j]!) === 0) repeats.push(rows[j]!);
  return repeats.sort((a, b) => a - b);
}
