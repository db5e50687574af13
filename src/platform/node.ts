/** Node: DuckDB-WASM's blocking bundle, and paths on the file system. */
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { TableFileInput } from '../ingest/files/read.js';
import { startNodeKernelWorker } from '../kernels/worker-node.js';
import { openDuckDBNode } from '../store/duckdb-node.js';
import type { Platform } from './platform.js';

/**
 * The files of a path: a file itself, or every file under a folder (sorted by name, symbolic links
 * followed), each marked with the folder. A folder holding no file at all is an error (nothing to
 * load, most likely a wrong path); what the loader cannot use is its business.
 */
async function expandPath(path: string): Promise<TableFileInput[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new Error(`cannot load ${path}: no such file or folder`);
  }
  if (!info.isDirectory()) return [{ name: basename(path), path }];
  const inputs = await expandFolder(path, { root: path, folders: new Set([await realpath(path)]), files: new Map() });
  if (inputs.length === 0) throw new Error(`cannot load ${path}: the folder holds no files`);
  return inputs;
}

interface Walk {
  root: string;
  /** Real paths of the folders entered: a link back to one (a loop) or a second link is not followed. */
  folders: Set<string>;
  /** Real path -> the path it was first read under: a file reached twice is read once. */
  files: Map<string, string>;
}

async function expandFolder(dir: string, walk: Walk): Promise<TableFileInput[]> {
  const names = (await readdir(dir)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const inputs: TableFileInput[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const entry: TableFileInput = { name, path, folder: walk.root };
    let info;
    let real;
    try {
      info = await stat(path);
      real = await realpath(path);
    } catch {
      inputs.push({ ...entry, skip: 'a broken symbolic link' });
      continue;
    }
    if (info.isDirectory()) {
      if (name.startsWith('.')) inputs.push({ ...entry, skip: 'a hidden folder' });
      else if (walk.folders.has(real)) inputs.push({ ...entry, skip: 'a link to a folder already read (a loop or a second link)' });
      else {
        walk.folders.add(real);
        inputs.push(...(await expandFolder(path, walk)));
      }
    } else if (!info.isFile()) inputs.push({ ...entry, skip: 'not a regular file' });
    else if (walk.files.has(real)) inputs.push({ ...entry, skip: `the same file as ${walk.files.get(real)}` });
    else {
      walk.files.set(real, path);
      inputs.push(entry);
    }
  }
  return inputs;
}

export const nodePlatform: Platform = {
  openSql: () => openDuckDBNode(),
  expandPath,
  startKernels: startNodeKernelWorker,
};
