/** What a result was measured on: machine, load, runtime and the versions of every measured engine. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The machine and runtime of a run. */
export interface Machine {
  cpu: string;
  cores: number;
  memory_gib: number;
  platform: string;
  arch: string;
  kernel: string;
  node: string;
  v8: string;
  /** 1, 5 and 15 minute load averages when the run started and ended (other processes share the machine). */
  load_average_start: number[];
  load_average_end?: number[];
  versions: Record<string, string>;
  /** The measured code: HEAD and the files of src/, assembly/ and workers/ that differed from it. */
  source?: { commit: string; uncommitted: string[] };
}

/** HEAD and the uncommitted engine files, when this is a git work tree. */
function describeSource(): Machine['source'] {
  try {
    // trimEnd only: a porcelain line starts with its status columns, the first one often a space
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trimEnd();
    const commit = git('rev-parse', '--short', 'HEAD');
    const uncommitted = git('status', '--porcelain', '--', 'src', 'assembly', 'workers').split('\n').filter(Boolean).map((l) => l.slice(3));
    return { commit, uncommitted };
  } catch {
    return undefined;
  }
}

/** The installed version of a package (its package.json, which not every package exports, so read from node_modules). */
function packageVersion(name: string): string {
  const roots = [process.cwd(), fileURLToPath(new URL('../..', import.meta.url)), fileURLToPath(new URL('..', import.meta.url))];
  for (const root of roots) {
    const file = name === 'chainlens' ? path.join(root, 'package.json') : path.join(root, 'node_modules', name, 'package.json');
    if (!existsSync(file)) continue;
    const json = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string };
    if (json.name === name) return json.version;
  }
  return 'unknown';
}

/** Describes this machine now. */
export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memory_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: os.platform(),
    arch: os.arch(),
    kernel: os.release(),
    node: process.version,
    v8: process.versions.v8,
    load_average_start: os.loadavg().map((x) => Math.round(x * 100) / 100),
    versions: {
      chainlens: packageVersion('chainlens'),
      '@duckdb/duckdb-wasm': packageVersion('@duckdb/duckdb-wasm'),
      '@duckdb/node-api': packageVersion('@duckdb/node-api'),
      tinybench: packageVersion('tinybench'),
      assemblyscript: packageVersion('assemblyscript'),
    },
    source: describeSource(),
  };
}

/** The load averages now, rounded. */
export const loadAverage = (): number[] => os.loadavg().map((x) => Math.round(x * 100) / 100);
