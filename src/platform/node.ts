/** Node: DuckDB-WASM's blocking bundle, and paths on the file system. */
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { TableFileInput } from '../ingest/files/read.js';
import { startNodeKernelWorker } from '../kernels/worker-node.js';
import { openDuckDBNode } from '../store/duckdb-node.js';
import type { Platform } from './platform.js';

async function expandPath(path: string): Promise<TableFileInput[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new Error(`cannot load ${path}: no such file or folder`);
  }
  if (info.isFile()) return [{ name: basename(path), path }];
  const entries = (await readdir(path, { withFileTypes: true }))
    .filter((e) => !e.name.startsWith('.') && !e.name.endsWith('.md'))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const inputs: TableFileInput[] = [];
  for (const entry of entries) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) inputs.push(...(await expandPath(child)));
    else if (entry.isFile()) inputs.push({ name: entry.name, path: child });
  }
  return inputs;
}

export const nodePlatform: Platform = {
  openSql: () => openDuckDBNode(),
  expandPath,
  startKernels: startNodeKernelWorker,
};
