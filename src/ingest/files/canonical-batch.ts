/**
 * The column-wise check of an Arrow record batch that already has the canonical column types: the
 * vectorized path of ingest. Each column is checked as a whole (types, nulls where none may be,
 * public keys over the string bytes, key lists' keys likewise, the table's rules of validate.ts) and, when every value passes, the batch's
 * own column data become the canonical batch: nothing is read into JS values or copied.
 */
import { Field, makeData, RecordBatch, Schema, Struct, type Data, type DataType } from 'apache-arrow';
import { arrowSchema, arrowType, NANOS_METADATA_KEY } from '../arrow.js';
import { allPublicKeysUtf8 } from '../../kernels/base58.js';
import { holdsNulls, TABLES, type Column, type TableName } from '../../schema/tables.js';
import { allKeyLists } from './key-lists.js';
import { TABLE_RULES, type ColumnRule } from '../validate.js';
import { HIGH, LOW, wordsOf } from '../../schema/u64-words.js';

/** Whether the input column has exactly the canonical type (an `ns` column: Int64 marked as nanoseconds). */
function canonicalType(column: Column, field: Field): boolean {
  if (String(field.type) !== String(arrowType(column.kind))) return false;
  return column.kind !== 'ns' || field.metadata.get(NANOS_METADATA_KEY) === 'ns';
}

/**
 * Whether batches of `schema` can be canonical batches of `table` (every column of the table it
 * has with the canonical type, every required one present): its values may still send a batch to
 * the row path, its types would send them all.
 */
export function canonicalSchema(table: TableName, schema: Schema): boolean {
  return TABLES[table].columns.every((column) => {
    const field = schema.fields.find((f) => f.name === column.name);
    return field ? canonicalType(column, field) : column.optional === true;
  });
}

/** Every non-null value of a Utf8 column is a base58 public key (a null spanning bytes that are not digits sends the batch to the row path). */
function allPublicKeys(data: Data): boolean {
  const skip = data.nullCount > 0 ? (i: number) => !data.getValid(i) : undefined;
  return allPublicKeysUtf8(data.values as Uint8Array, data.valueOffsets as Int32Array, 0, data.length, skip);
}

/** Every non-null value of a u64 column holds the rule (read as 32-bit words: no BigInt per row). */
function holdsRule(data: Data, rule: ColumnRule): boolean {
  const words = wordsOf(data.values as BigUint64Array);
  const nullable = data.nullCount > 0;
  for (let i = 0; i < data.length; i++) {
    if (!rule.holdsWords(words[2 * i + HIGH]!, words[2 * i + LOW]!) && !(nullable && !data.getValid(i))) return false;
  }
  return true;
}

/** An all-null column of `type` (an optional column the input lacks). */
function nulls(type: DataType, length: number): Data {
  return makeData({ type, length, nullCount: length, nullBitmap: new Uint8Array((length + 7) >> 3) } as never);
}

/**
 * The batch as a canonical batch of `table` when every column is canonical and every value passes;
 * undefined otherwise (the row path then finds and names the bad rows). Columns `leftInFile` were
 * checked where the file was decoded and stay there: nulls here, required or not.
 */
export function canonicalBatch(table: TableName, batch: RecordBatch, leftInFile: readonly string[] = []): RecordBatch | undefined {
  const schema = arrowSchema(table);
  const children: Data[] = [];
  for (const column of TABLES[table].columns) {
    const index = batch.schema.fields.findIndex((f) => f.name === column.name);
    if (index < 0) {
      if (!column.optional && !leftInFile.includes(column.name)) return undefined;
      children.push(nulls(arrowType(column.kind), batch.numRows));
      continue;
    }
    const data = batch.data.children[index]!;
    if (!canonicalType(column, batch.schema.fields[index]!)) return undefined;
    if (data.nullCount > 0 && !holdsNulls(column)) return undefined;
    if (column.kind === 'mint' && !allPublicKeys(data)) return undefined;
    if (column.kind === 'keys' && !allKeyLists(data)) return undefined;
    if (TABLE_RULES[table]?.some((rule) => rule.column === column.name && !holdsRule(data, rule))) return undefined;
    children.push(data);
  }
  const struct = makeData({ type: new Struct(schema.fields), length: batch.numRows, nullCount: 0, children });
  return new RecordBatch(schema as Schema, struct);
}
