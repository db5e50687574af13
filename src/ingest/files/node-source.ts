/**
 * Node-only edge: a file path as a ByteSource. Sequential reads go through an fs read stream (1 MiB
 * chunks); random access (Parquet) through `fs.openAsBlob`, a Blob backed by the file, not by memory.
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
