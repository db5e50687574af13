/**
 * Arrow record batches (from an Arrow IPC file or stream, or decoded from Parquet) into validated
 * canonical batches. Rows are numbered from 1 across the whole file.
 *
 * Two paths. A batch whose columns already have the canonical types is checked column by column
 * (canonical-batch.ts) and, when every value passes, kept as it is: no value is read into JS or
 * copied. Any other batch (other integer widths, floats, dictionary strings, Timestamps; or a batch
 * with a bad value) goes row by row through the same normalisers as text input, so conversion is
 * exact and every rejection names its row and field.
 */
import { makeData, RecordBatch, Schema, Struct, Table, Type, TimeUnit, type Data, type Timestamp } from 'apache-arrow';
import { NANOS_METADATA_KEY } from '../arrow.js';
import { ExactNanos, type BatchValidator, type DeferredColumns } from '../validate.js';
import { canonicalBatch } from './canonical-batch.js';
import { validatorFor, type FileBatch, type ReaderContext } from './reader.js';

const UNIT_NANOS: Record<TimeUnit, bigint> = {
  [TimeUnit.SECOND]: 1_000_000_000n,
  [TimeUnit.MILLISECOND]: 1_000_000n,
  [TimeUnit.MICROSECOND]: 1_000n,
  [TimeUnit.NANOSECOND]: 1n,
};

type Accessor = (i: number) => unknown;

const absent: Accessor = () => undefined;

/** Exact nanoseconds from an int64 buffer (Timestamp of any unit, or an Int64 marked as nanoseconds). */
function nanosAccessor(data: Data, multiplier: bigint): Accessor {
  const values = data.values as BigInt64Array;
  const nullable = data.nullCount > 0;
  return (i) => (nullable && !data.getValid(i) ? null : new ExactNanos(values[i] * multiplier));
}

/** One value getter per canonical column for this batch (undefined for a column the file lacks). */
function accessors(validator: BatchValidator, batch: RecordBatch): Accessor[] {
  const schema = batch.schema;
  return validator.columns.map((column) => {
    const index = schema.fields.findIndex((field) => field.name === column.name);
    if (index < 0) return absent;
    const field = schema.fields[index];
    const data = batch.data.children[index];
    if (column.kind === 'ns') {
      if (field.typeId === Type.Timestamp) return nanosAccessor(data, UNIT_NANOS[(field.type as Timestamp).unit]);
      if (field.metadata.get(NANOS_METADATA_KEY) === 'ns' && field.typeId === Type.Int && data.values instanceof BigInt64Array) {
        return nanosAccessor(data, 1n);
      }
    }
    const vector = batch.getChildAt(index)!;
    return (i) => vector.get(i);
  });
}

/** The rows of `a` with the columns of `b` beside theirs, cut where `b`'s batches are (same rows, in order). */
export function joinColumns(a: RecordBatch, b: readonly RecordBatch[]): RecordBatch[] {
  let at = 0;
  return b.map((part) => {
    const left = a.slice(at, (at += part.numRows));
    const fields = [...left.schema.fields, ...part.schema.fields];
    const children = [...left.data.children, ...part.data.children];
    return new RecordBatch(new Schema(fields, left.schema.metadata), makeData({ type: new Struct(fields), length: part.numRows, nullCount: 0, children }));
  });
}

/**
 * Validates a file's record batches into batches of `context.batchRows` rows read (re-cut across the
 * input's own batch boundaries). The table comes from the context or from the schema's columns.
 */
export async function* validateRecordBatches(
  schema: Schema, batches: AsyncIterable<RecordBatch> | Iterable<RecordBatch>, context: ReaderContext,
  /** Once the batches end: the rows read before the input was cut short, if it was. */
  cutAfter?: () => number | undefined,
  /**
   * Columns the batches lack because they were left in the file: the kept batches name them; a
   * batch that takes the row path reads them back first.
   */
  deferred?: DeferredColumns,
): AsyncGenerator<FileBatch> {
  const validator = validatorFor(context, schema.fields.map((field) => field.name));
  const values: unknown[] = new Array(validator.columns.length);
  let row = 0;
  // canonical batches kept as they are, re-cut into batches of batchRows rows
  let kept: RecordBatch[] = [];
  let keptRows = 0;
  function* emit(all: boolean): Generator<FileBatch> {
    while (keptRows >= context.batchRows || (all && keptRows > 0)) {
      const n = Math.min(keptRows, context.batchRows);
      const held = new Table(kept);
      const rows = held.slice(0, n);
      kept = held.slice(n).batches;
      keptRows -= n;
      const rowNumbers = new Uint32Array(n);
      for (let i = 0; i < n; i++) rowNumbers[i] = ++row;
      yield { table: validator.table, source: context.source, rows, read: n, rejections: [], rowNumbers, ...(deferred ? { deferred } : {}) };
    }
  }
  for await (const batch of batches) {
    const canonical = validator.read === 0 ? canonicalBatch(validator.table, batch, deferred?.columns) : undefined;
    if (canonical) {
      kept.push(canonical);
      keptRows += canonical.numRows;
      yield* emit(false);
      continue;
    }
    yield* emit(true); // rows stay in file order: the kept ones go first
    const lacking = deferred && !batch.schema.fields.some((field) => deferred.columns.includes(field.name));
    for (const whole of lacking ? joinColumns(batch, (await deferred.read(row, row + batch.numRows)).batches) : [batch]) {
      const getters = accessors(validator, whole);
      for (let i = 0; i < whole.numRows; i++) {
        for (let j = 0; j < getters.length; j++) values[j] = getters[j](i);
        validator.add(++row, values);
        if (validator.read >= context.batchRows) yield validator.take();
      }
    }
  }
  yield* emit(true);
  const cut = cutAfter?.();
  if (cut !== undefined) validator.truncated(cut + 1);
  if (validator.read > 0 || cut !== undefined) yield validator.take();
}
