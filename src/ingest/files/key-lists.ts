/**
 * The check of a key-list column (a transaction's write-locked or read-only accounts): shared by
 * the column-wise check of a canonical batch and by the Parquet decoder, which checks such a
 * column where it decodes it and can then leave it in the file (parquet-decoder.ts).
 */
import type { Data, Field } from 'apache-arrow';
import { allPublicKeysUtf8 } from '../../kernels/base58.js';
import { MAX_TRANSACTION_KEYS } from '../../schema/tables.js';
import { arrowType } from '../arrow.js';

/** The canonical type of a key-list column, as apache-arrow prints it. */
const KEY_LIST_TYPE = String(arrowType('keys'));

/** Whether a field has the canonical key-list type. */
export const isKeyListField = (field: Field): boolean => String(field.type) === KEY_LIST_TYPE;

/** A List<Utf8> column's buffers: list i holds keys offsets[i]..offsets[i + 1] of the keys' bytes and offsets. */
export interface KeyListBuffers {
  readonly length: number;
  readonly offsets: Int32Array;
  /** Keys that are null (some, or -1: not known). */
  readonly keyNulls: number;
  readonly keyBytes: Uint8Array;
  readonly keyOffsets: Int32Array;
}

/** Every list holds at most MAX_TRANSACTION_KEYS public keys, none null. */
export function keyListsPass({ length, offsets, keyNulls, keyBytes, keyOffsets }: KeyListBuffers): boolean {
  for (let i = 0; i < length; i++) if (offsets[i + 1]! - offsets[i]! > MAX_TRANSACTION_KEYS) return false;
  if (keyNulls !== 0) return false;
  return allPublicKeysUtf8(keyBytes, keyOffsets, offsets[0]!, offsets[length]!);
}

/** Every list of a List<Utf8> column holds at most MAX_TRANSACTION_KEYS public keys, none null. */
export function allKeyLists(data: Data): boolean {
  const child = data.children[0]!;
  return keyListsPass({
    length: data.length, offsets: data.valueOffsets as Int32Array,
    keyNulls: child.nullCount, keyBytes: child.values as Uint8Array, keyOffsets: child.valueOffsets as Int32Array,
  });
}
