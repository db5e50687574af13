/**
 * The bytes of one input file, whatever holds them (a Uint8Array, a Blob or File, a byte stream; a
 * Node path is opened by node-source.ts), as what the readers need: a sequential stream of chunks,
 * random access through a Blob (Parquet), and a peek at the first bytes (format detection).
 */

/** Anything chainlens reads bytes from. */
export type ByteStreamLike = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** The bytes of one file as the readers consume them. */
export interface ByteSource {
  /** The content from the start as chunks. A source built on a one-shot stream may be read once. */
  chunks(): AsyncIterable<Uint8Array>;
  /** The content with random access. A one-shot stream is buffered whole into the Blob. */
  blob(): Promise<Blob>;
  /** Up to `n` first bytes, without consuming `chunks()`. */
  head(n: number): Promise<Uint8Array>;
}

const CHUNK_BYTES = 1 << 20;

/** The items of a ReadableStream (whether or not the platform makes it async-iterable) or an async iterable. */
export async function* iterate<T>(stream: ReadableStream<T> | AsyncIterable<T>): AsyncGenerator<T> {
  if (Symbol.asyncIterator in stream) {
    yield* stream as AsyncIterable<T>;
    return;
  }
  const reader = (stream as ReadableStream<T>).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** A source over bytes in memory (chunks are 1 MiB views, so text decoding streams too). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    async *chunks() {
      for (let at = 0; at < bytes.length; at += CHUNK_BYTES) yield bytes.subarray(at, at + CHUNK_BYTES);
    },
    blob: async () => new Blob([bytes as BlobPart]),
    head: async (n) => bytes.subarray(0, n),
  };
}

/** A source over a Blob (a browser File; in Node, `fs.openAsBlob` gives a file-backed one). */
export function blobSource(blob: Blob): ByteSource {
  return {
    chunks: () => iterate(blob.stream() as ReadableStream<Uint8Array>),
    blob: async () => blob,
    head: async (n) => new Uint8Array(await blob.slice(0, n).arrayBuffer()),
  };
}

/**
 * A source over a one-shot byte stream: `head` buffers the first chunks and `chunks` replays them;
 * `blob` reads the whole stream into memory (Parquet needs random access: prefer a path or a Blob).
 */
export function streamSource(stream: ByteStreamLike): ByteSource {
  const iterator = iterate(stream);
  const buffered: Uint8Array[] = [];
  let bufferedBytes = 0;
  let ended = false;
  let taken = false;
  const take = () => {
    if (taken) throw new Error('a streamed input can be read once');
    taken = true;
  };
  const rest = async function* () {
    yield* buffered.splice(0);
    if (!ended) yield* { [Symbol.asyncIterator]: () => iterator };
  };
  return {
    chunks() {
      take();
      return rest();
    },
    async blob() {
      take();
      const parts: Uint8Array[] = [];
      for await (const chunk of rest()) parts.push(chunk);
      return new Blob(parts as BlobPart[]);
    },
    async head(n) {
      while (bufferedBytes < n && !ended) {
        const next = await iterator.next();
        if (next.done) ended = true;
        else {
          buffered.push(next.value);
          bufferedBytes += next.value.length;
        }
      }
      return concatBytes(buffered, n);
    },
  };
}

/** The first `limit` bytes of some chunks, as one array. */
export function concatBytes(chunks: readonly Uint8Array[], limit = Infinity): Uint8Array {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  const out = new Uint8Array(Math.min(total, limit));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.length) break;
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}
