/**
 * Small state files of a Node process (the server's tokens, the RPC follower's cursor): read when
 * there, written whole or not at all (a temporary file, then a rename), so that a crash leaves the
 * old file or the new one, never a torn one.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

let temporaries = 0;

/** The file's text, or undefined when there is no such file. */
export async function readStateFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces the file with `text` atomically (its folder made when missing); `mode` for a new file. */
export async function writeStateFile(file: string, text: string, mode = 0o644): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}-${++temporaries}.tmp`;
  await writeFile(temporary, text, { mode });
  await rename(temporary, file);
}
