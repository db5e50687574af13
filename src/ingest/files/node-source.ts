/**
 * Node-only edge: a file path as a ByteSource. Sequential reads go through an fs read stream (1 MiB
 * chunks); random access through `fs.openAsBlob`, a Blob backed by the file, not by memory, or, for
 * the Parquet decoder, `fileRanges`.
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { ByteSource } from './source.js';

/** The file at `path` as a ByteSource. */
export function pathSource(path: string): ByteSource {
  return {
    chunks: () => createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>,
    blob: () => openAsBlob(path),
    async head(n) {
      const handle = await open(path, 'r');
      try {
        const buffer = new Uint8Array(n);
        const { bytesRead } = await handle.read(buffer, 0, n, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
  };
}

/** What identifies a version of the file at `path`: its size and modification time (a read back checks it did not change). */
export async function fileStamp(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  return `${info.size}:${info.mtimeNs}`;
}

/**
 * The file at `path` as what parquet-wasm reads a Blob through (`size`, `slice`, `arrayBuffer`),
 * each range read into one buffer by positioned reads of one open handle: openAsBlob's Blob reads
 * a range as a stream of small chunks and joins them, which was a tenth of the decoder's time on
 * the hour and much of its garbage (and a file cut short while read fails instead of reading short).
 */
export async function fileRanges(path: string): Promise<{ blob: Blob; close(): Promise<void> }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const range = (from: number, to: number): unknown => {
      const at = (i: number | undefined, otherwise: number) => {
        const n = i === undefined ? otherwise : i < 0 ? Math.max(0, to - from + i) : Math.min(i, to - from);
        return from + n;
      };
      return {
        size: to - from,
        slice: (start?: number, end?: number) => range(at(start, 0), Math.max(at(start, 0), at(end, to - from))),
        async arrayBuffer(): Promise<ArrayBuffer> {
          const bytes = new Uint8Array(to - from);
          for (let done = 0; done < bytes.length;) {
            const { bytesRead } = await handle.read(bytes, done, bytes.length - done, from + done);
            if (bytesRead === 0) throw new Error(`${path}: the file ended at byte ${from + done} while ${to} were expected (cut short while read)`);
            done += bytesRead;
          }
          return bytes.buffer;
        },
      };
    };
    return { blob: range(0, size) as Blob, close: () => handle.close() };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
