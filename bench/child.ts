/**
 * Child processes of the end-to-end figures: each measurement that needs its own memory (start-up,
 * a whole ingest) runs in a fresh Node process started from a compiled bench module, which prints
 * one JSON line with its results as the last line of its output.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The marker before a child's result line. */
const RESULT = 'BENCH-RESULT ';

/** The repository root (this file is bench/child.ts, or dist/bench/child.js once compiled). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), import.meta.url.endsWith('.ts') ? '..' : '../..');

/** The compiled module of `moduleUrl`: a module of the source tree (bench run by vitest) maps to its build in dist/. */
export function compiledModule(moduleUrl: string): string {
  const file = fileURLToPath(moduleUrl);
  const relative = path.relative(ROOT, file);
  if (relative.startsWith(`dist${path.sep}`) || relative.startsWith('..')) return file;
  return path.join(ROOT, 'dist', relative.replace(/\.ts$/, '.js'));
}

/** Runs `node <module> --child <args...>` and resolves with the JSON it printed; rejects on failure. */
export function runChild<T>(moduleUrl: string, args: readonly string[], options: { nodeArgs?: readonly string[] } = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), compiledModule(moduleUrl), '--child', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').reverse().find((l) => l.startsWith(RESULT));
      if (code !== 0 || line === undefined) {
        reject(new Error(`child ${args.join(' ')} exited with ${code}: ${errorLines(err)}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT.length)) as T);
    });
  });
}

/**
 * The lines of a child's stderr that say what went wrong: those that start with an error's name
 * (`Error: ...`, `RangeError: ...`), not the source line Node prints above them; else its last words.
 */
export function errorLines(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => l !== '' && !l.startsWith('at '));
  const errors = lines.filter((l) => /^[A-Za-z]*Error\b/.test(l));
  return (errors.length ? errors : lines.slice(-3)).join(' / ').slice(0, 600);
}

/** True when this process was started by `runChild` for the module at `moduleUrl`. */
export function isChildOf(moduleUrl: string): boolean {
  return process.argv[1] === fileURLToPath(moduleUrl) && process.argv[2] === '--child';
}

/** The child's arguments after `--child`. */
export const childArgs = (): string[] => process.argv.slice(3);

/** Prints the child's result line. */
export function printResult(value: unknown): void {
  process.stdout.write(`${RESULT}${JSON.stringify(value)}\n`);
}

/**
 * Peak resident set size of this process so far, MiB: its memory's own high-water mark (Linux's
 * VmHWM). getrusage's maxRSS is not that: Linux carries over to an exec'd child the resident set
 * its parent had when it forked it, so every child of a runner at 954 MiB reported at least 954.
 */
export function peakRssMiB(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]) / 1024;
  } catch {
    // no /proc: not Linux
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** Resident set size now, MiB. */
export const rssMiB = (): number => process.memoryUsage().rss / 2 ** 20;
