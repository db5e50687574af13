/**
 * One temporary folder for the whole test run: every test process sees it as os.tmpdir()
 * (TMPDIR, inherited by the forked test processes and the CLIs they start), and it is removed when
 * the run ends, with whatever a test left in it (folders made by mkdtemp, unpacked fixtures).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'chainlens-test-run-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
