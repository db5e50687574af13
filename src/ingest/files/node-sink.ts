/** Node-only edge: a file path as a ByteSink, and a writer straight to a file. */
import { open } from 'node:fs/promises';
import type { TableName } from '../../schema/tables.js';
import type { FileFormat } from './detect.js';
import type { ByteSink } from './sink.js';
import { createTableWriter, type TableWriter, type TableWriterOptions } from './write.js';

/** Creates (or truncates) the file at `path` and returns a sink writing to it; close() closes the file. */
export async function fileSink(path: string): Promise<ByteSink> {
  const handle = await open(path, 'w');
  return {
    async write(chunk: Uint8Array) {
      for (let at = 0; at < chunk.length;) {
        const { bytesWritten } = await handle.write(chunk, at, chunk.length - at);
        at += bytesWritten;
      }
    },
    close: () => handle.close(),
  };
}

/** `createTableWriter` to the file at `path`. */
export async function createTableFileWriter<T extends TableName>(
  path: string, format: FileFormat, table: T, options?: TableWriterOptions,
): Promise<TableWriter<T>> {
  return createTableWriter(format, table, await fileSink(path), options);
}
