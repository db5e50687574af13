/**
 * The blocks a load keeps although some of their rows were rejected, and the files that end
 * mid-row: a block is never loaded partly without a warning that names it. A block counts as kept
 * when any row of its slot passed validation (the pipeline may still reject it as not newer; the
 * rejections say so).
 */
import type { BlockStats } from './solana/index.js';
import type { FileBatch } from './files/reader.js';
import { sameU64, wordsOf } from '../schema/u64-words.js';

/** Blocks listed by name in one warning; the rest are counted. */
const LISTED = 10;

/** Collects, over a load, what the warnings about incomplete blocks need. */
export class IncompleteBlocks {
  /** Slots with a kept row. */
  readonly #kept = new Set<bigint>();
  /** Per source: rejected rows per slot. */
  readonly #rejected = new Map<string, Map<bigint, number>>();
  /** Per source: the highest slot of a kept row. */
  readonly #lastSlot = new Map<string, bigint>();
  /** Per source: the row at which it ends mid-row. */
  readonly #truncated = new Map<string, number>();

  /** Notes a chunk's batches (before they are committed). */
  observe(batches: readonly FileBatch[]): void {
    for (const batch of batches) {
      const slots = batch.rows.getChild('slot')?.toArray() as BigUint64Array | undefined;
      if (slots && slots.length > 0) {
        // a BigInt made per run of equal slots (a block), not per row
        const words = wordsOf(slots);
        let max = this.#lastSlot.get(batch.source) ?? 0n;
        for (let i = 0; i < slots.length; i++) {
          if (i > 0 && sameU64(words, i, i - 1)) continue;
          const slot = slots[i]!;
          this.#kept.add(slot);
          if (slot > max) max = slot;
        }
        this.#lastSlot.set(batch.source, max);
      }
      batch.rejectedSlots?.forEach((slot) => slot !== undefined && this.#reject(batch.source, slot, 1));
      if (batch.truncatedAt !== undefined) this.#truncated.set(batch.source, batch.truncatedAt);
    }
  }

  /** Notes the transactions a raw getBlock decoder refused in blocks it kept. */
  observeRaw(source: string, stats: readonly BlockStats[]): void {
    for (const block of stats) if (block.rejectedTransactions > 0) this.#reject(source, block.slot, block.rejectedTransactions);
  }

  #reject(source: string, slot: bigint, rows: number): void {
    const slots = this.#rejected.get(source) ?? new Map<bigint, number>();
    this.#rejected.set(source, slots);
    slots.set(slot, (slots.get(slot) ?? 0) + rows);
  }

  /** One warning per file with incomplete blocks, one per file that ends mid-row. */
  warnings(): string[] {
    const out: string[] = [];
    for (const [source, slots] of this.#rejected) {
      const blocks = [...slots].filter(([slot]) => this.#kept.has(slot)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (blocks.length === 0) continue;
      const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
      if (blocks.length === 1) {
        const [[slot, n]] = blocks;
        out.push(`${source}: block ${slot} was loaded without ${rows(n)} of it that ${n === 1 ? 'was' : 'were'} rejected (see the rejections)`);
        continue;
      }
      const listed = blocks.slice(0, LISTED).map(([slot, n]) => `${slot} (${rows(n)})`).join(', ');
      const more = blocks.length > LISTED ? ` and ${blocks.length - LISTED} more` : '';
      out.push(`${source}: ${blocks.length} blocks were loaded without some of their rows, which were rejected (see the rejections): slots ${listed}${more}`);
    }
    for (const [source, row] of this.#truncated) {
      const last = this.#lastSlot.get(source);
      const block = last === undefined ? 'no row of it was kept' : `block ${last}, the last read from it, may be missing rows`;
      out.push(`${source}: the file ends mid-row at row ${row} (truncated?): ${block}`);
    }
    return out;
  }
}
