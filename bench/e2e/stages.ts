/**
 * Where chainlens' time goes end to end: the chainlens subject run once more under `--cpu-prof`
 * (every thread writes a profile: the main thread and the kernel worker), self time attributed by
 * source path. A WebAssembly or native frame counts for the nearest caller with a known path.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  callFrame: { url: string; functionName: string };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Zero ms for every stage. */
const noTime = (): Record<Stage, number> => Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;

function stageOf(url: string): Stage | undefined {
  if (!url.startsWith('file:') && !url.startsWith('/') && !url.includes('node_modules')) return undefined;
  return RULES.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other';
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
    const own = stageOf(node.callFrame.url) ?? (up === undefined ? 'other' : resolve(up));
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
