/**
 * Where a compiled worker entry is, from a module of this package (Node 20 cannot run a .ts
 * worker): from dist/src/<dir>/ the entry is dist/workers/<file>; when the module runs from the
 * TS sources (vitest), the same relative path names a file of the source tree's workers/ that does
 * not exist, so it falls back to <package root>/dist/workers/<file>, built by `npm run build`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The URL of dist/workers/`file`, found relative to `from` (a module two levels below the package root or dist). */
export function compiledWorkerUrl(file: string, from: string | URL): URL {
  const candidates = [new URL(`../../workers/${file}`, from), new URL(`../../dist/workers/${file}`, from)];
  const found = candidates.find((url) => existsSync(fileURLToPath(url)));
  if (!found) {
    const paths = candidates.map((url) => fileURLToPath(url)).join(', ');
    throw new Error(`worker not built: none of ${paths} exists (run npm run build)`);
  }
  return found;
}
