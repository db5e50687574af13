/**
 * Where chainlens' time goes end to end: the chainlens subject run once more under `--cpu-prof`
 * (every thread writes a profile: the main thread and the workers), self time attributed by
 * source path. A frame in a bundle is mapped through the bundle's source map to the module it came
 * from (the package's Node entry and the kernel worker are bundles since step 43). A WebAssembly or
 * native frame counts for the nearest caller with a known path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runChild } from '../child.js';

/** The stages, in pipeline order, and what else the process does. */
export const STAGES = ['decode', 'validate', 'compute', 'store', 'other'] as const;
export type Stage = (typeof STAGES)[number];

const RULES: readonly [Stage, RegExp][] = [
  ['decode', /\/src\/ingest\/(files|solana)\/|\/src\/ingest\/(arrow|block-columns)|parquet-wasm/],
  ['validate', /\/src\/ingest\/validate/],
  ['compute', /\/src\/(kernels|priorityfee|market|windows)\/|\/workers\//],
  ['store', /\/src\/store\/|duckdb-wasm|apache-arrow/],
];

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Zero ms for every stage. */
const noTime = (): Record<Stage, number> => Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;

/** Each script's source map (null without one), by URL. */
const sourceMaps = new Map<string, SourceMap | null>();

function sourceMapOf(url: string): SourceMap | null {
  let map = sourceMaps.get(url);
  if (map === undefined) {
    const file = `${url.startsWith('file:') ? fileURLToPath(url) : url}.map`;
    map = existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : null;
    sourceMaps.set(url, map);
  }
  return map;
}

/** The path of the module a frame's code came from: its script's, or through the script's source map. */
function sourceOf({ url, lineNumber, columnNumber }: ProfileNode['callFrame']): string {
  if (lineNumber < 0 || !(url.startsWith('file:') || url.startsWith('/'))) return url;
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber) as { originalSource?: string } | undefined;
  if (!entry?.originalSource) return url;
  return new URL(entry.originalSource, url.startsWith('file:') ? url : pathToFileURL(url)).href;
}

function stageOf(frame: ProfileNode['callFrame']): Stage | undefined {
  const { url } = frame;
  if (!url.startsWith('file:') && !url.startsWith('/') && !url.includes('node_modules')) return undefined;
  const source = sourceOf(frame);
  return RULES.find(([, pattern]) => pattern.test(source))?.[0] ?? 'other';
}

/** Milliseconds of self time per stage in one profile (idle time left out). */
export function attribute(profile: CpuProfile): Record<Stage, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const stage = new Map<number, Stage>();
  const resolve = (id: number): Stage => {
    const known = stage.get(id);
    if (known) return known;
    const node = byId.get(id)!;
    const up = parent.get(id);
    const own = stageOf(node.callFrame) ?? (up === undefined ? 'other' : resolve(up));
    stage.set(id, own);
    return own;
  };
  const out = noTime();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') return;
    out[resolve(id)] += (profile.timeDeltas[i + 1] ?? 0) / 1000;
  });
  return out;
}

/** CPU ms per stage over all threads, and of the serving (main) thread alone. */
export interface StageTimes {
  all: Record<Stage, number>;
  serving: Record<Stage, number>;
}

/** Runs the chainlens subject at `moduleUrl` under the profiler on `folder`; CPU ms per stage. */
export async function profileStages(moduleUrl: string, folder: string): Promise<StageTimes> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chainlens-prof-'));
  try {
    await runChild(moduleUrl, [folder, path.join(dir, 'answers.json')], { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
    const all = noTime();
    let serving = noTime();
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'))) {
      const shares = attribute(JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CpuProfile);
      for (const s of STAGES) all[s] += shares[s];
      // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread
      if (file.split('.')[4] === '0') serving = shares;
    }
    return { all, serving };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
