/**
 * The browser family's baseline: the same dump loaded by the Node engine in a fresh process,
 * `createEngine()` then `engine.load(folder)` (what the page's engine worker does on open: a new
 * engine, then the load), timed from before createEngine to the load's end, the module import
 * apart (the page has its engine's module loaded before the files are opened).
 *
 * `node node-load.js --child <folder>` prints the times, the load report's counts and the peak RSS.
 */
import { childArgs, isChildOf, peakRssMiB, printResult } from '../child.js';
import { importChainlens } from '../engine-entry.js';

/** What the baseline child reports. */
export interface NodeLoad {
  import_ms: number;
  /** createEngine + load. */
  load_ms: number;
  /** From the process start to the load's end (Node's own start-up and the import included). */
  wall_ms: number;
  blocks: number;
  rejected: number;
  peak_rss_mib: number;
}

async function run(folder: string): Promise<NodeLoad> {
  const before = performance.now();
  const { createEngine } = await importChainlens();
  const imported = performance.now();
  const engine = await createEngine();
  const report = await engine.load(folder);
  const loaded = performance.now();
  const result: NodeLoad = {
    import_ms: imported - before, load_ms: loaded - imported, wall_ms: loaded,
    blocks: report.blocks, rejected: report.rejected, peak_rss_mib: peakRssMiB(),
  };
  await engine.close();
  return result;
}

if (isChildOf(import.meta.url)) {
  const [folder] = childArgs();
  printResult(await run(folder!));
  process.exit(0);
}
