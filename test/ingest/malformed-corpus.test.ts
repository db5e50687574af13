/**
 * The corpus of malformed inputs in test/fixtures/malformed/: one folder per case, its input files
 * and an expected.json (format: test/fixtures/malformed/README.md). Every folder is a case, found by
 * listing the directory, so a new folder is picked up without touching this file. Each case copies
 * its inputs to a temporary folder, loads them on a fresh engine (the folder, or the one file that
 * `named` says) and checks the report against expected.json: the counts, the rejections by
 * {source, row, field} in order, the warnings by regular expression, and the answers it lists, so
 * that "loses no valid row" is checked by data, not only by counts.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.node.js';

const CORPUS = fileURLToPath(new URL('../fixtures/malformed/', import.meta.url));

/** One answer to check: the records of `method` with `params`; their count, or the value at `pick`. */
interface AnswerCheck {
  method: string;
  params: Record<string, unknown>;
  /** The number of records answered. */
  length?: number;
  /** A path into the answer, `.`-separated (`0.total_tx_count`: the first record's field). */
  pick?: string;
  /** The value at `pick`. */
  equals?: unknown;
}

/** The content of a case's expected.json. */
interface Expected {
  what: string;
  /** Load this file of the case (its name) instead of the folder. */
  named?: string;
  /** LoadOptions.batchRows for the load. */
  batchRows?: number;
  read?: number;
  ingested?: number;
  rejected?: number;
  blocks?: number;
  rejections?: { source: string; row: number; field: string }[];
  /** Regular expressions; each must match some warning of the report. */
  warnings?: string[];
  /** A regular expression: the load must reject with an Error whose message matches it. */
  error?: string;
  answers?: AnswerCheck[];
}

const cases = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** The value at a `.`-separated path (array indexes as numbers). */
function pick(value: unknown, path: string): unknown {
  let at = value;
  for (const key of path.split('.')) at = (at as Record<string, unknown> | undefined)?.[key];
  return at;
}

/** Copies the case's input files (everything but expected.json) into a fresh temporary folder. */
function copyInputs(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `chainlens-malformed-${name}-`));
  temporary.push(dir);
  const inputs = readdirSync(join(CORPUS, name)).filter((file) => file !== 'expected.json');
  expect(inputs.length, `${name}: no input file`).toBeGreaterThan(0);
  for (const file of inputs) copyFileSync(join(CORPUS, name, file), join(dir, file));
  return dir;
}

async function runCase(name: string): Promise<void> {
  const expected = JSON.parse(readFileSync(join(CORPUS, name, 'expected.json'), 'utf8')) as Expected;
  const dir = copyInputs(name);
  const source = expected.named !== undefined ? join(dir, expected.named) : dir;
  const options = expected.batchRows !== undefined ? { batchRows: expected.batchRows } : {};
  const engine = await createEngine();
  try {
    if (expected.error !== undefined) {
      const error = await engine.load(source, options).then(
        (report) => new Error(`the load did not throw; report: ${JSON.stringify(report)}`),
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(new RegExp(expected.error));
    } else {
      const report = await engine.load(source, options);
      const context = `${name}: ${JSON.stringify({ ...report, rejections: report.rejections.slice(0, 10) })}`;
      expect(report.read, context).toBe(report.ingested + report.rejected);
      expect({ read: report.read, ingested: report.ingested, rejected: report.rejected, blocks: report.blocks }, context).toEqual({
        read: expected.read, ingested: expected.ingested, rejected: expected.rejected, blocks: expected.blocks,
      });
      expect(report.rejections.map(({ source, row, field }) => ({ source, row, field })), context).toEqual(expected.rejections ?? []);
      for (const warning of expected.warnings ?? []) {
        expect(report.warnings.some((w) => new RegExp(warning).test(w)), `${name}: no warning matches /${warning}/ in ${JSON.stringify(report.warnings)}`).toBe(true);
      }
    }
    for (const check of expected.answers ?? []) {
      const answer = (await engine.call(check.method as never, check.params as never)) as unknown[];
      const what = `${name}: ${check.method} ${JSON.stringify(check.params)}`;
      if (check.length !== undefined) expect(answer, what).toHaveLength(check.length);
      if (check.pick !== undefined) expect(pick(answer, check.pick), `${what} at ${check.pick}`).toEqual(check.equals);
    }
  } finally {
    await engine.close();
  }
}

describe('the malformed-input corpus (test/fixtures/malformed)', () => {
  it('has cases, each with an expected.json', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const name of cases) expect(readdirSync(join(CORPUS, name)), name).toContain('expected.json');
  });

  for (const name of cases) it(name, () => runCase(name), 60_000);
});
