/**
 * The resume file: `{"slot": "<decimal>"}`, the newest slot committed. It is rewritten after each
 * committed block through a temporary file and a rename, so a crash leaves the old cursor or the new
 * one, never a torn file; a restart resumes at the slot after it, so nothing is skipped and nothing
 * is ingested twice.
 */
import { readStateFile, writeStateFile } from '../platform/state-file.js';
import { U64_MAX } from '../schema/amounts.js';

/** The slot in the cursor file; undefined when there is no file yet. Throws on a file that holds no slot. */
export async function readCursor(file: string): Promise<bigint | undefined> {
  const text = await readStateFile(file);
  if (text === undefined) return undefined;
  let slot: unknown;
  try {
    slot = (JSON.parse(text) as { slot?: unknown }).slot;
  } catch {
    // reported below with the text
  }
  const value = typeof slot === 'string' && /^\d+$/.test(slot) ? BigInt(slot) : Number.isSafeInteger(slot) ? BigInt(slot as number) : undefined;
  if (value === undefined || value < 0n || value > U64_MAX) {
    throw new Error(`cursor file ${file}: expected {"slot": "<decimal slot>"}, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  return value;
}

/** Records `slot` as the newest committed one (atomically). */
export async function writeCursor(file: string, slot: bigint): Promise<void> {
  await writeStateFile(file, `${JSON.stringify({ slot: slot.toString() })}\n`);
}
