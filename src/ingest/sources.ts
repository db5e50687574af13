/**
 * What `engine.load` accepts, and how each kind becomes file inputs. Paths are the platform's
 * business (src/platform/node.ts); everything else is handled here for every platform.
 */
import type { TableFileInput } from './files/read.js';

/** A named in-memory file. */
export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/**
 * A dump to load: a path to a folder or file (Node), a File or Blob (browser), bytes (named or
 * not), or a list of these.
 */
export type LoadSource = string | URL | Blob | Uint8Array | NamedBytes | readonly LoadSource[];

/** Expands paths; the rest is common to every platform. */
export type PathExpander = (path: string) => Promise<TableFileInput[]>;

/**
 * File inputs of a source, in the order given (a folder's files sorted by name). A browser File
 * picked with its folder (a `webkitRelativePath` with a folder in it) counts as found in that folder.
 */
export async function expandSource(source: LoadSource, expandPath: PathExpander): Promise<TableFileInput[]> {
  if (Array.isArray(source)) {
    const lists = [];
    for (const item of source as readonly LoadSource[]) lists.push(await expandSource(item, expandPath));
    return lists.flat();
  }
  if (typeof source === 'string') return expandPath(source);
  if (source instanceof URL) {
    if (source.protocol !== 'file:') throw new Error(`cannot load ${source.href}: only file: URLs (chainlens never fetches)`);
    return expandPath(decodeURIComponent(source.pathname));
  }
  if (source instanceof Uint8Array) return [{ name: 'input', bytes: source }];
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const file = source as Blob & { name?: string; webkitRelativePath?: string };
    const folder = file.webkitRelativePath?.includes('/') ? file.webkitRelativePath.split('/')[0] : undefined;
    return [{ name: file.name ?? 'input', blob: source, ...(folder ? { folder } : {}) }];
  }
  const named = source as NamedBytes;
  if (typeof named.name === 'string' && named.bytes instanceof Uint8Array) return [{ name: named.name, bytes: named.bytes }];
  throw new TypeError('load: expected a path, a File/Blob, bytes or { name, bytes }');
}
