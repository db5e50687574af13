/** Dump files: reading (Parquet, Arrow IPC, NDJSON, CSV) into validated canonical batches, and writing. */
export { readTableFile, type ReadTableOptions, type TableFileInput } from './read.js';
export { createTableWriter, type TableWriter, type TableWriterOptions } from './write.js';
export { detectFormat, formatFromMagic, formatFromName, tableFromColumns, tableFromName, type FileFormat } from './detect.js';
export { memorySink, type ByteSink } from './sink.js';
export { configureParquetWasm, loadParquetWasm } from './parquet-wasm.js';
export { DEFAULT_BATCH_ROWS } from './reader.js';
export type { Rejection, ValidatedBatch } from '../validate.js';
