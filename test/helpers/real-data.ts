/**
 * The real mainnet fixtures of test/fixtures/real/ (sources and licences: PROVENANCE.md there), unpacked.
 *
 * The repository keeps them gzip-compressed. On first use this module unpacks them into
 * os.tmpdir()/chainlens-real-data-<key>/, where the key hashes SHA256SUMS and the compressed files'
 * names and sizes, checking every file against SHA256SUMS; later uses (and the other test processes)
 * find the folder complete and only read it. Each file is written under a temporary name and renamed, so
 * test processes unpacking at the same time never see a partial file. A missing or damaged fixture throws.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const SOURCE = fileURLToPath(new URL('../fixtures/real/', import.meta.url));

/** Every file under `dir`, as '/'-separated paths relative to it (the form SHA256SUMS uses). */
function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

/** Writes `bytes` to `path` through a temporary name, so a reader sees the whole file or none. */
function writeWhole(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
}

/** Unpacks the fixtures once (see the module comment); returns the folder. */
function unpack(): string {
  const sums = readFileSync(join(SOURCE, 'SHA256SUMS'), 'utf8');
  const files = listFiles(SOURCE).sort();
  const key = createHash('sha256').update(sums);
  for (const file of files) key.update(`${file}\0${statSync(join(SOURCE, file)).size}\0`);
  const target = join(tmpdir(), `chainlens-real-data-${key.digest('hex').slice(0, 16)}`);
  const done = join(target, '.complete');
  if (existsSync(done)) return target;

  const expected = new Map(sums.trim().split('\n').map((line) => [line.slice(66), line.slice(0, 64)] as const));
  for (const file of files) {
    if (!file.endsWith('.gz')) {
      writeWhole(join(target, file), readFileSync(join(SOURCE, file)));
      continue;
    }
    const name = file.slice(0, -'.gz'.length);
    let bytes: Uint8Array;
    try {
      bytes = gunzipSync(readFileSync(join(SOURCE, file)));
    } catch (error) {
      throw new Error(`fixture ${SOURCE}${file} does not unpack: ${(error as Error).message}`);
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (expected.get(name) !== hash) throw new Error(`fixture ${name}: sha256 ${hash} is not the one in ${SOURCE}SHA256SUMS`);
    expected.delete(name);
    writeWhole(join(target, name), bytes);
  }
  if (expected.size > 0) throw new Error(`fixtures missing from ${SOURCE}: ${[...expected.keys()].join(', ')}`);
  writeWhole(done, new Uint8Array());
  return target;
}

/** Absolute path of the unpacked fixtures (the layout of test/fixtures/real/ without .gz), ending with a slash. */
export const REAL_DATA = `${unpack()}/`;
