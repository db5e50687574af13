/**
 * What every format reader shares: its context, and the validator that cuts batches. Readers take
 * bytes and yield ValidatedBatches of `batchRows` rows read (the last one may be shorter).
 */
import type { TableName } from '../../schema/tables.js';
import { BatchValidator, type ValidatedBatch } from '../validate.js';
import { tableFromColumns } from './detect.js';

/** Default rows per batch. */
export const DEFAULT_BATCH_ROWS = 65_536;

/** What a format reader is told about its file. */
export interface ReaderContext {
  /** The file's name, used in every rejection and error. */
  readonly source: string;
  /** The table, when the file name (or the caller) said; otherwise the reader decides from the columns. */
  readonly table: TableName | undefined;
  readonly batchRows: number;
}

/** A format reader: the file's bytes in, validated batches out. */
export type FormatReader = (chunks: AsyncIterable<Uint8Array>, context: ReaderContext) => AsyncGenerator<ValidatedBatch>;

/** The validator for a file once its columns are known (table from the context, else from the columns). */
export function validatorFor(context: ReaderContext, columns: Iterable<string>): BatchValidator {
  const table = context.table ?? tableFromColumns(columns, context.source);
  return new BatchValidator(table, context.source, Math.min(context.batchRows, DEFAULT_BATCH_ROWS));
}
