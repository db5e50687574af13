/**
 * Parquet writer over parquet-wasm's streaming writer (`transformParquetStream`): record batches go in
 * through a stream with back-pressure, Parquet bytes come out and are written to the sink as they are
 * produced. parquet-wasm buffers rows until a row group is full (`rowGroupRows`, default 65,536), so
 * memory holds about one row group; each full row group is encoded and written out.
 */
import { tableToIPC, type Table } from 'apache-arrow';
import type { RecordBatch as WasmBatch } from 'parquet-wasm/esm';
import type { TableName } from '../../schema/tables.js';
import { TableBuilder } from '../arrow.js';
import { loadParquetWasm, type ParquetWasm } from './parquet-wasm.js';
import type { SinkWriter } from './sink.js';
import { iterate } from './source.js';
import type { FormatWriter } from './write-text.js';

/** Options of the Parquet writer. */
export interface ParquetWriteOptions {
  /** Rows per row group (default 65,536). */
  rowGroupRows?: number;
  /** Column compression (default snappy). */
  compression?: 'snappy' | 'zstd' | 'uncompressed';
}

/** A Parquet file of canonical batches, streamed out row group by row group. */
export function parquetWriter(table: TableName, sink: SinkWriter, options: ParquetWriteOptions = {}): FormatWriter {
  let started: Promise<{ input: WritableStreamDefaultWriter<WasmBatch>; pumped: Promise<void>; parquet: ParquetWasm }> | undefined;
  let rows = 0;

  const start = () => (started ??= (async () => {
    const parquet = await loadParquetWasm();
    const compression = {
      snappy: parquet.Compression.SNAPPY, zstd: parquet.Compression.ZSTD, uncompressed: parquet.Compression.UNCOMPRESSED,
    }[options.compression ?? 'snappy'];
    const properties = new parquet.WriterPropertiesBuilder()
      .setMaxRowGroupSize(options.rowGroupRows ?? 65_536)
      .setCompression(compression)
      .setCreatedBy('chainlens')
      .build();
    const batches = new TransformStream<WasmBatch, WasmBatch>();
    // not awaited here: parquet-wasm reads the first batch (for the schema) before it resolves
    const pumped = (async () => {
      const bytes = await parquet.transformParquetStream(batches.readable, properties);
      for await (const chunk of iterate(bytes as ReadableStream<Uint8Array>)) await sink.write(chunk);
    })();
    const input = batches.writable.getWriter();
    // if the sink fails, stop the batches too, so that a pending write rejects instead of waiting forever
    pumped.catch((error: unknown) => input.abort(error).catch(() => {}));
    return { input, pumped, parquet };
  })());

  const send = async (data: Table) => {
    const { input, parquet } = await start();
    const wasmTable = parquet.Table.fromIPCStream(tableToIPC(data, 'stream'));
    try {
      for (const batch of wasmTable.recordBatches()) {
        await input.ready;
        await input.write(batch);
      }
    } finally {
      wasmTable.free();
    }
  };

  return {
    async write(data) {
      if (data.numRows === 0) return;
      rows += data.numRows;
      await send(data);
    },
    async end() {
      // parquet-wasm cannot write a stream of no batches: an empty file gets one empty batch (the schema)
      if (rows === 0) await send(emptyTable(table));
      const { input, pumped } = await start();
      await input.close();
      await pumped;
    },
  };
}

/** A Table of the canonical schema with one empty record batch. */
function emptyTable(table: TableName): Table {
  return new TableBuilder(table, 1).finish();
}
