/**
 * mergeBySlot against a plain reference: streams of batches, in slot order within each stream or
 * not, come out as chunks in which no slot is split across chunks, every row once, and, while the
 * streams are each in slot order, every chunk's slots below the next chunk's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowsToTable } from '../../src/ingest/arrow.js';
import { mergeBySlot } from '../../src/ingest/slot-merge.js';
import type { ValidatedBatch } from '../../src/ingest/validate.js';
import type { BlockRow } from '../../src/schema/tables.js';

const block = (slot: bigint, k: number): BlockRow =>
  ({ slot, timestamp: 1_700_000_000_000_000_000n + BigInt(k), parent_slot: null, block_height: null, leader: null, block_cu_limit: null });

/** A stream of batches cut from `slots`, in that order, of `sizes` rows in turn. */
async function* stream(slots: bigint[], sizes: number[], source: string): AsyncGenerator<ValidatedBatch> {
  for (let at = 0, k = 0; at < slots.length; k++) {
    const part = slots.slice(at, at + sizes[k % sizes.length]!);
    yield {
      table: 'blocks', source, rows: rowsToTable('blocks', part.map((s, i) => block(s, at + i))), read: part.length,
      rowNumbers: Uint32Array.from(part, (_, i) => at + i + 1), rejections: [],
    };
    at += part.length;
  }
}

/** Each chunk's rows as (source, row number, slot). */
async function chunks(streams: AsyncIterable<ValidatedBatch>[]): Promise<[string, number, bigint][][]> {
  const out = [];
  for await (const chunk of mergeBySlot(streams)) {
    out.push(chunk.flatMap((b) => Array.from({ length: b.rows.numRows }, (_, i) =>
      [b.source, Number(b.rowNumbers![i]), b.rows.getChild('slot')!.get(i) as bigint] as [string, number, bigint])));
  }
  return out;
}

const slotList = fc.array(fc.bigInt({ min: 1n, max: 40n }), { minLength: 1, maxLength: 60 });
const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 10 });

describe('mergeBySlot', () => {
  it('every row once, no slot split across chunks; chunks ascend when each stream is in slot order', async () => {
    await fc.assert(fc.asyncProperty(slotList, slotList, sizes, sizes, fc.boolean(), async (a, b, sizesA, sizesB, ordered) => {
      const [left, right] = ordered ? [[...a].sort(cmp), [...b].sort(cmp)] : [a, b];
      const got = await chunks([stream(left, sizesA, 'a'), stream(right, sizesB, 'b')]);
      const rows = got.flat();
      // every row once
      const keys = rows.map(([s, r]) => `${s}:${r}`).sort();
      expect(keys).toEqual([...left.map((_, i) => `a:${i + 1}`), ...right.map((_, i) => `b:${i + 1}`)].sort());
      // each row carries its own slot
      for (const [s, r, slot] of rows) expect(slot).toBe((s === 'a' ? left : right)[r - 1]);
      if (!ordered) return;
      // a slot in one chunk only, and the chunks ascending
      for (let k = 1; k < got.length; k++) {
        const before = got[k - 1]!.map(([, , slot]) => slot);
        const after = got[k]!.map(([, , slot]) => slot);
        expect(before.reduce((m, s) => (s > m ? s : m)) < after.reduce((m, s) => (s < m ? s : m))).toBe(true);
      }
    }), { numRuns: 150 });
  });
});

const cmp = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);
