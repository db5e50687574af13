/** Where writers put their bytes: a WritableStream, an object with write/close, or a callback. */
import { concatBytes } from './source.js';

/** A byte sink. Writers await each write, so a sink that returns a promise applies back-pressure. */
export type ByteSink =
  | WritableStream<Uint8Array>
  | { write(chunk: Uint8Array): unknown; close?(): unknown }
  | ((chunk: Uint8Array) => unknown);

/** A sink as writers use it. */
export interface SinkWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Adapts any ByteSink to a SinkWriter. */
export function sinkWriter(sink: ByteSink): SinkWriter {
  if (typeof sink === 'function') {
    return { write: async (chunk) => void (await sink(chunk)), close: async () => {} };
  }
  if ('getWriter' in sink) {
    const writer = sink.getWriter();
    return {
      write: async (chunk) => {
        await writer.ready;
        await writer.write(chunk);
      },
      close: () => writer.close(),
    };
  }
  return {
    write: async (chunk) => void (await sink.write(chunk)),
    close: async () => void (await sink.close?.()),
  };
}

/** A sink that keeps everything in memory (copies each chunk); `bytes()` joins what was written. */
export function memorySink(): { write(chunk: Uint8Array): void; bytes(): Uint8Array } {
  const chunks: Uint8Array[] = [];
  return {
    write: (chunk) => void chunks.push(chunk.slice()),
    bytes: () => concatBytes(chunks),
  };
}
