/**
 * The app's engine, in a Web Worker: loading a dump (decoding, the pipeline, DuckDB-WASM's and the
 * kernels' own workers started from here) never blocks the page. One engine at a time: opening
 * files or starting a replay replaces it, so memory holds one copy of the data.
 */
/// <reference lib="webworker" />
import duckdbWorkerUrl from '@duckdb/duckdb-wasm/dist/duckdb-browser-eh.worker.js?url';
import duckdbWasmUrl from '@duckdb/duckdb-wasm/dist/duckdb-eh.wasm?url';
import { expose, transfer } from 'comlink';
import { createEngine, type Engine, type IngestReport, type Replay } from '../../dist/src/index.browser.js';
import { encodeTimestamp } from '../../dist/src/schema/encode.js';
import { MAX_LISTED, type EngineHost, type LoadResult, type LoadStatus, type OpenFile, type ReplayStatus } from './host-api.js';

/** The block times an engine has committed, followed through its ingestion stream. */
interface Span {
  firstTime?: string;
  lastTime?: string;
  blocks: number;
}

let engine: Engine | undefined;
let span: Span = { blocks: 0 };
let opened: File[] = [];
let replay: Replay | undefined;
let replaySpeed = 1;
/** Set from pause() until the commit under way is over: the replay is pausing, not yet paused. */
let pausing: Promise<void> | undefined;
/** Replaces the engine; waits for the previous one to close first (its workers and memory go). */
let swapping: Promise<unknown> = Promise.resolve();

const startEngine = () => createEngine({ duckdb: { workerUrl: duckdbWorkerUrl, wasmUrl: duckdbWasmUrl } });
/**
 * An engine started with the worker, before any file is given: the first files open into it with
 * its DuckDB-WASM and kernel workers already up (the page's time to its first chart).
 */
let warm: Promise<Engine> | undefined = startEngine();
warm.catch(() => undefined); // a failure shows when the engine is needed: a fresh one is tried then

async function freshEngine(): Promise<Engine> {
  const previous = engine;
  engine = undefined;
  replay?.stop();
  replay = undefined;
  await previous?.close();
  const next = await (warm?.catch(startEngine) ?? startEngine());
  warm = undefined;
  span = { blocks: 0 };
  const own = span;
  await next.subscribe('chain::market::ingestion', {}, (push) => {
    if (!push.block) return;
    own.firstTime ??= push.block.timestamp;
    own.lastTime = push.block.timestamp;
    own.blocks++;
  });
  engine = next;
  return next;
}

/** A File that counts as found in its folder (the engine skips a folder's stray files with a warning). */
function inFolder({ file, path }: OpenFile): File {
  if (path.includes('/')) Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

function resultOf(report: IngestReport, seconds: number): LoadResult {
  return {
    read: report.read, ingested: report.ingested, rejected: report.rejected, blocks: report.blocks,
    rejections: report.rejections.slice(0, MAX_LISTED).map(({ source, row, field, message }) => ({ source, row, field, message })),
    warnings: report.warnings, seconds, firstTime: span.firstTime, lastTime: span.lastTime,
  };
}

const failed = (error: unknown, seconds: number): LoadResult => ({
  read: 0, ingested: 0, rejected: 0, blocks: span.blocks, rejections: [], warnings: [], seconds,
  firstTime: span.firstTime, lastTime: span.lastTime, error: error instanceof Error ? error.message : String(error),
});

function exclusive<T>(task: () => Promise<T>): Promise<T> {
  const run = swapping.then(task);
  swapping = run.catch(() => undefined);
  return run;
}

const host: EngineHost = {
  open(files, onProgress) {
    return exclusive(async () => {
      const started = performance.now();
      const seconds = () => (performance.now() - started) / 1000;
      opened = files.map(inFolder);
      try {
        const target = await freshEngine();
        const report = await target.load(opened, {
          onProgress: (p) => void onProgress({ ...p, seconds: seconds() } satisfies LoadStatus),
        });
        return resultOf(report, seconds());
      } catch (error) {
        return failed(error, seconds());
      }
    });
  },

  connect() {
    if (!engine) throw new Error('no engine: open a dump first');
    const { port1, port2 } = new MessageChannel();
    engine.serve(port1);
    return transfer(port2, [port2]);
  },

  play(speed) {
    return exclusive(async () => {
      if (opened.length === 0) throw new Error('nothing to replay: open a dump first');
      const target = await freshEngine();
      replaySpeed = speed;
      // everything kept, so that time travel works over what was replayed
      replay = target.replay(opened, { speed, retain: 'all' });
      replay.done.catch(() => undefined);
    });
  },
  async pause() {
    if (!replay) return;
    replay.pause();
    const settled = replay.idle(); // the commit under way, if any, is over: the views hold still from then
    pausing = settled;
    await settled;
    if (pausing === settled) pausing = undefined;
  },
  resume: () => replay?.resume(),
  setSpeed(speed) {
    replaySpeed = speed;
    replay?.setSpeed(speed);
  },
  stop: () => replay?.stop(),

  replayStatus(): ReplayStatus | undefined {
    if (!replay) return undefined;
    const time = replay.time;
    return {
      state: pausing && replay.state === 'paused' ? 'pausing' : replay.state, speed: replaySpeed, blocks: span.blocks, firstTime: span.firstTime, lastTime: span.lastTime,
      ...(time === undefined ? {} : { time: encodeTimestamp(time) }),
    };
  },

  async replayEnded() {
    const current = replay;
    if (!current) throw new Error('no replay');
    const started = performance.now();
    try {
      const report = await current.done;
      return resultOf(report, report.seconds);
    } catch (error) {
      return failed(error, (performance.now() - started) / 1000);
    }
  },
};

expose(host);
