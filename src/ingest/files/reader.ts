/**
 * What every format reader shares: its context, and the validator that cuts batches. Readers take
 * bytes and yield FileBatches of `batchRows` rows read (the last one may be shorter).
 */
import type { TableName } from '../../schema/tables.js';
import { BatchValidator, type ValidatedBatch } from '../validate.js';
import { tableFromColumns } from './detect.js';

/** Default rows per batch. */
export const DEFAULT_BATCH_ROWS = 65_536;

/** What the loader needs beyond a ValidatedBatch to name the blocks that a file's rejections leave incomplete. */
export interface FileBatch extends ValidatedBatch {
  /** Per rejection, in order: the slot its row showed, if the row showed one. */
  rejectedSlots?: (bigint | undefined)[];
  /** On a file's last batch: the row at which the file ends mid-row (it looks truncated). */
  truncatedAt?: number;
}

/** What a format reader is told about its file. */
export interface ReaderContext {
  /** The file's name, used in every rejection and error. */
  readonly source: string;
  /** The table, when the file name (or the caller) said; otherwise the reader decides from the columns. */
  readonly table: TableName | undefined;
  readonly batchRows: number;
}

/** A format reader: the file's bytes in, validated batches out. */
export type FormatReader = (chunks: AsyncIterable<Uint8Array>, context: ReaderContext) => AsyncGenerator<FileBatch>;

/** A slot as a reader may find it in a raw value: an unsigned integer, a number or a string of digits. */
export function slotOf(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return BigInt(value.trim());
  return undefined;
}

/** A BatchValidator that also remembers the slot of every rejected row and whether the file ends mid-row. */
export class FileValidator extends BatchValidator {
  private readonly slotColumn = this.columns.findIndex((column) => column.name === 'slot');
  private rejectedSlots: (bigint | undefined)[] = [];
  private rowSlot: bigint | undefined;
  private truncatedAt: number | undefined;

  override add(row: number, values: ArrayLike<unknown>): boolean {
    this.rowSlot = this.slotColumn < 0 ? undefined : slotOf(values[this.slotColumn]);
    try {
      return super.add(row, values);
    } finally {
      this.rowSlot = undefined;
    }
  }

  /** Records a rejected row; `slot`, when the reader could read it from the row. */
  override reject(row: number, field: string, message: string, slot: bigint | undefined = this.rowSlot): void {
    super.reject(row, field, message);
    this.rejectedSlots.push(slot);
  }

  /** Marks the file as ending mid-row at `row` (told on the batch that holds its last row). */
  truncated(row: number): void {
    this.truncatedAt = row;
  }

  override take(): FileBatch {
    const batch: FileBatch = super.take();
    if (this.rejectedSlots.some((slot) => slot !== undefined)) batch.rejectedSlots = this.rejectedSlots;
    if (this.truncatedAt !== undefined) batch.truncatedAt = this.truncatedAt;
    this.rejectedSlots = [];
    this.truncatedAt = undefined;
    return batch;
  }
}

/** The validator for a file once its columns are known (table from the context, else from the columns). */
export function validatorFor(context: ReaderContext, columns: Iterable<string>): FileValidator {
  const table = context.table ?? tableFromColumns(columns, context.source);
  return new FileValidator(table, context.source, Math.min(context.batchRows, DEFAULT_BATCH_ROWS));
}
