/**
 * A record batch of key-list, Utf8 or u64 columns read where parquet-wasm decoded it: through the Arrow C
 * data interface (its `intoFFI`), as views of parquet-wasm's memory, so that checking them (and
 * copying out a few rows of text) allocates no JavaScript buffers (copying each batch out as IPC
 * made the worker collect garbage every few batches, and cost more than the check).
 */
import type { KeyListBuffers } from './key-lists.js';
import type { Utf8Values } from '../utf8-values.js';

/**
 * The ArrowArray struct in wasm32 memory: length, null_count, offset, n_buffers, n_children
 * (int64 each), then the pointers buffers, children, dictionary, release, private_data (32 bits each).
 */
const LENGTH = 0;
const NULL_COUNT = 8;
const OFFSET = 16;
const N_CHILDREN = 32;
const BUFFERS = 40;
const CHILDREN = 44;

/** A view of one ArrowArray struct at `at` of `memory`. */
function arrowArray(memory: ArrayBuffer, at: number) {
  const view = new DataView(memory);
  const i64 = (field: number) => Number(view.getBigInt64(at + field, true));
  const pointer = (array: number, i: number) => view.getUint32(view.getUint32(at + array, true) + 4 * i, true);
  return {
    length: i64(LENGTH),
    nullCount: i64(NULL_COUNT),
    offset: i64(OFFSET),
    children: i64(N_CHILDREN),
    buffer: (i: number) => pointer(BUFFERS, i),
    child: (i: number) => arrowArray(memory, pointer(CHILDREN, i)),
  };
}

/**
 * The List<Utf8> columns of the struct array (a record batch) at `at` of `memory`, as views of it:
 * valid until that memory grows or the batch is freed (undefined for a batch read otherwise).
 */
export function keyListColumns(memory: ArrayBuffer, at: number): KeyListBuffers[] | undefined {
  const batch = arrowArray(memory, at);
  if (batch.offset !== 0) return undefined; // a slice of a batch: parquet-wasm hands out whole ones
  return Array.from({ length: batch.children }, (_, c) => {
    const list = batch.child(c);
    const keys = list.child(0);
    return {
      length: list.length,
      offsets: new Int32Array(memory, list.buffer(1) + 4 * list.offset, list.length + 1),
      keyNulls: keys.nullCount,
      keyBytes: new Uint8Array(memory, keys.buffer(2)),
      keyOffsets: new Int32Array(memory, keys.buffer(1) + 4 * keys.offset, keys.length + 1),
    };
  });
}

/** A Utf8 column's buffers (value i is bytes[offsets[i]..offsets[i + 1]), its length and nulls. */
export interface Utf8Buffers extends Utf8Values {
  readonly length: number;
  readonly nullCount: number;
}

/**
 * The Utf8 columns of the struct array (a record batch) at `at` of `memory`, as views of it: valid
 * until that memory grows or the batch is freed (undefined for a batch read otherwise).
 */
export function utf8Columns(memory: ArrayBuffer, at: number): Utf8Buffers[] | undefined {
  const batch = arrowArray(memory, at);
  if (batch.offset !== 0) return undefined;
  return Array.from({ length: batch.children }, (_, c) => {
    const column = batch.child(c);
    return {
      length: column.length,
      nullCount: column.nullCount,
      offsets: new Int32Array(memory, column.buffer(1) + 4 * column.offset, column.length + 1),
      bytes: new Uint8Array(memory, column.buffer(2)),
    };
  });
}

/**
 * The one u64 column of the struct array (a record batch) at `at` of `memory`, as its values' 32-bit
 * words (a view of it: valid until that memory grows or the batch is freed); undefined for a batch
 * read otherwise or a column with nulls.
 */
export function u64Words(memory: ArrayBuffer, at: number): Uint32Array | undefined {
  const batch = arrowArray(memory, at);
  if (batch.offset !== 0 || batch.children !== 1) return undefined;
  const column = batch.child(0);
  if (column.nullCount !== 0) return undefined;
  return new Uint32Array(memory, column.buffer(1) + 8 * column.offset, 2 * column.length);
}
