import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configureParquetWasm } from '../../../src/ingest/files/parquet-wasm.js';
import { memorySink } from '../../../src/ingest/files/sink.js';
import { createTableWriter } from '../../../src/ingest/files/write.js';
import type { FileFormat } from '../../../src/ingest/files/detect.js';
import { makeRows, readAll } from './fixtures.js';

const rows = makeRows('trades', 200, 21);

async function fileBytes(format: FileFormat): Promise<Uint8Array> {
  const sink = memorySink();
  const writer = createTableWriter(format, 'trades', sink, { rowGroupRows: 50 });
  await writer.write(rows);
  await writer.close();
  return sink.bytes();
}

/** A web ReadableStream over bytes, in small chunks, as fetch() or File.stream() would give. */
function webStream(bytes: Uint8Array, size = 1000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

describe('inputs a browser has: ReadableStream and Blob/File', () => {
  for (const format of ['parquet', 'arrow', 'ndjson', 'csv'] as const) {
    it(`${format} from a ReadableStream and from a Blob`, async () => {
      const bytes = await fileBytes(format);
      expect((await readAll({ name: `trades.${format}`, stream: webStream(bytes) })).rows).toEqual(rows);
      expect((await readAll({ name: `trades.${format}`, blob: new Blob([bytes as Uint8Array<ArrayBuffer>]) }, { batchRows: 64 })).rows).toEqual(rows);
    });
  }

  it('exactly one of bytes, path, stream or blob', async () => {
    await expect(readAll({ name: 'trades.csv' })).rejects.toThrow(/give exactly one of bytes, path, stream or blob/);
  });
});

describe('parquet-wasm', () => {
  it('its ESM build works when initialised with the wasm bytes (the browser path)', async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('parquet-wasm/esm/parquet_wasm_bg.wasm'));
    configureParquetWasm({ build: 'esm', wasm });
    try {
      const bytes = await fileBytes('parquet');
      expect((await readAll({ name: 'trades.parquet', bytes })).rows).toEqual(rows);
    } finally {
      configureParquetWasm({});
    }
  });
});

describe('platform code stays at the edge', () => {
  it('no module of the core readers and writers imports node:* (only node-source.ts and node-sink.ts)', () => {
    const root = fileURLToPath(new URL('../../../src/ingest/', import.meta.url));
    const files = [
      ...['arrow.ts', 'validate.ts', '../schema/base58.ts'].map((file) => join(root, file)),
      ...readdirSync(join(root, 'files')).filter((file) => !file.startsWith('node-')).map((file) => join(root, 'files', file)),
    ];
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]node:|import\(['"]node:/);
  });
});
