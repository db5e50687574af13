/**
 * `fileRanges` (node-source.ts), what the Parquet decoder reads a Node path through: slices and
 * their bytes as a Blob of the same file gives them (nested, negative, past the end, empty), and a
 * file cut short after it was opened fails the read, naming it.
 */
import { mkdtempSync, openAsBlob, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileRanges } from '../../../src/ingest/files/node-source.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-file-ranges-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BYTES = Uint8Array.from({ length: 10_000 }, (_, i) => (i * 31 + 7) & 255);

it('slices read what a Blob of the same file reads', async () => {
  const path = join(dir, 'bytes.bin');
  writeFileSync(path, BYTES);
  const reference = await openAsBlob(path);
  const { blob, close } = await fileRanges(path);
  try {
    expect(blob.size).toBe(BYTES.length);
    const cases: [number?, number?][] = [[], [0, 4], [9_996], [-4], [100, 50], [2_000, 20_000], [-300, -100], [5_000, 5_000], [12_000]];
    for (const [start, end] of cases) {
      const [mine, theirs] = [blob.slice(start, end), reference.slice(start, end)];
      expect(mine.size, `${start}, ${end}`).toBe(theirs.size);
      expect(new Uint8Array(await mine.arrayBuffer()), `${start}, ${end}`).toEqual(new Uint8Array(await theirs.arrayBuffer()));
    }
    // a slice of a slice
    const inner = blob.slice(1_000, 9_000).slice(-500, 7_900);
    const expected = reference.slice(1_000, 9_000).slice(-500, 7_900);
    expect(new Uint8Array(await inner.arrayBuffer())).toEqual(new Uint8Array(await expected.arrayBuffer()));
  } finally {
    await close();
  }
});

it('a file cut short after it was opened fails the read of what is gone, naming the file', async () => {
  const path = join(dir, 'cut.bin');
  writeFileSync(path, BYTES);
  const { blob, close } = await fileRanges(path);
  try {
    truncateSync(path, 4_000);
    expect(new Uint8Array(await blob.slice(0, 100).arrayBuffer())).toEqual(BYTES.subarray(0, 100));
    await expect(blob.slice(3_900, 4_100).arrayBuffer()).rejects.toThrow(/cut\.bin.*cut short/);
  } finally {
    await close();
  }
});
