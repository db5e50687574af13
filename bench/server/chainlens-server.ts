/**
 * The server under test, in its own process: createEngine, load a dump, `serve(engine, { port: 0 })`
 * and issue a token; then, on command, replay a second dump that continues the first (from the
 * newest committed block on), so that the queries can be measured while a replay ingests. It counts
 * the committed blocks (an in-process subscription to chain::priorityfee::block), records when each
 * block's pushes went out (for the WebSocket figure) and how long its event loop was held.
 *
 * `node chainlens-server.js --child <load folder> <replay folder>`, then commands on stdin
 * (control.ts): `replay [speed=Infinity] [minutes=M]` starts a replay from the newest committed
 * block (only M simulated minutes of it when given), `warm <minutes>` lets it run until its clock
 * is `minutes` past the loaded dump and pauses it, `resume`, `next-block` (waits for a commit),
 * `mark` (blocks so far, replay state, memory, event-loop delay since the last mark), `wait`
 * (until the replay ends), `stop`, `commits` (each block's push time), `peak`, `exit`.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Replay, ReplayReport } from '../../src/stream/replay.js';
import { parseIsoTimestamp } from '../../src/schema/time.js';
import { childArgs, isChildOf, peakRssMiB, rssMiB } from '../child.js';
import { serveCommands } from './control.js';
import { importChainlens } from '../engine-entry.js';

/** What the child says once it serves. */
export interface ServerReady {
  url: string;
  token: string;
  pid: number;
  loaded_blocks: number;
  load_seconds: number;
  /** The newest loaded block's time (ISO-8601). */
  newest: string;
  rss_mib: number;
}

/** The answer to `mark`. */
export interface ServerMark {
  /** Blocks committed since the process started (loaded blocks not counted). */
  blocks: number;
  /** performance.now() of the child, ms. */
  at_ms: number;
  state: Replay['state'] | 'none';
  /** The replay's clock (ISO-8601), if it has one. */
  time: string | null;
  rss_mib: number;
  peak_rss_mib: number;
  heap_used_mib: number;
  sockets: number;
  /** The event loop's delay since the last mark (how long a ready request could wait for the thread), ms. */
  loop_delay_p50_ms: number;
  loop_delay_p99_ms: number;
  loop_delay_max_ms: number;
}

/** A replay's report as the child answers it. */
export interface ServerReplayReport {
  blocks: number;
  rejected: number;
  seconds: number;
  blocks_per_second: number;
  stopped: boolean;
  first: string | null;
  last: string | null;
}

/** Wall-clock milliseconds (Unix epoch) with sub-millisecond precision, comparable across processes. */
export const wallMs = (): number => performance.timeOrigin + performance.now();

const reportOf = (r: ReplayReport): ServerReplayReport => {
  const json = r.toJSON();
  return {
    blocks: r.blocks, rejected: r.rejected, seconds: r.seconds, blocks_per_second: r.blocksPerSecond, stopped: r.stopped,
    first: json.firstTime ?? null, last: json.lastTime ?? null,
  };
};

async function main(loadFolder: string, replayFolder: string): Promise<void> {
  const { createEngine, serve } = await importChainlens();
  const engine = await createEngine();
  const started = performance.now();
  const loaded = await engine.load(loadFolder);
  const loadSeconds = (performance.now() - started) / 1000;
  if (loaded.rejected !== 0) throw new Error(`load: ${loaded.rejected} rows rejected`);
  const [newest] = (await engine.call('chain::priorityfee::block', { limit: 1 })) as { timestamp: string }[];
  if (!newest) throw new Error(`load: no block in ${loadFolder}`);
  const loadedNs = parseIsoTimestamp(newest.timestamp)!;
  let newestNs = loadedNs;

  // every committed block pushes one BlockFees record: the counter of blocks, and when each went out
  let blocks = 0;
  const commits: [string, number][] = [];
  await engine.subscribe('chain::priorityfee::block', {}, (push) => {
    const now = wallMs();
    for (const record of (push.result ?? []) as { slot: unknown; timestamp: string }[]) {
      blocks++;
      commits.push([String(record.slot), now]);
      newestNs = parseIsoTimestamp(record.timestamp) ?? newestNs;
    }
  });
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();

  const server = await serve(engine, { port: 0 });
  const { token } = await server.tokens.issue({ label: 'bench' });
  let replay: Replay | undefined;
  let peak = rssMiB();
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 100);
  const time = () => (replay?.time === undefined ? null : new Date(Number(replay.time / 1_000_000n)).toISOString());
  const current = () => {
    if (!replay) throw new Error('no replay started');
    return replay;
  };

  const ready: ServerReady = {
    url: server.url, token, pid: process.pid, loaded_blocks: loaded.blocks, load_seconds: loadSeconds, newest: newest.timestamp, rss_mib: rssMiB(),
  };
  serveCommands(ready, async (command, args) => {
    switch (command) {
      case 'replay': {
        if (replay && replay.state !== 'done') throw new Error('a replay is under way');
        const named = Object.fromEntries(args.map((a) => a.split('=') as [string, string]));
        const from = newestNs + 1n;
        const to = named.minutes === undefined ? undefined : from + BigInt(Math.round(Number(named.minutes) * 60e9));
        replay = engine.replay(replayFolder, { speed: Number(named.speed ?? Infinity), from, ...(to === undefined ? {} : { to }) });
        replay.done.catch(() => undefined);
        return { from: new Date(Number(from / 1_000_000n)).toISOString() };
      }
      case 'next-block': {
        const before = blocks;
        const begun = performance.now();
        while (blocks === before && current().state !== 'done') {
          if (performance.now() - begun > 120_000) throw new Error('no block committed in 2 minutes');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return { seconds: (performance.now() - begun) / 1000, state: current().state };
      }
      case 'warm': {
        const r = current();
        const target = loadedNs + BigInt(Math.round(Number(args[0]) * 60e9));
        const begun = performance.now();
        const before = blocks;
        r.resume();
        while (r.state === 'running' && (r.time === undefined || r.time < target)) await new Promise((resolve) => setTimeout(resolve, 20));
        r.pause();
        await r.idle();
        return { blocks: blocks - before, seconds: (performance.now() - begun) / 1000, state: r.state, time: time() };
      }
      case 'resume':
        current().resume();
        return { state: current().state };
      case 'mark': {
        peak = Math.max(peak, rssMiB());
        const mark: ServerMark = {
          blocks, at_ms: performance.now(), state: replay?.state ?? 'none', time: time(), rss_mib: rssMiB(), peak_rss_mib: peak,
          heap_used_mib: process.memoryUsage().heapUsed / 2 ** 20, sockets: server.sockets,
          loop_delay_p50_ms: loop.percentile(50) / 1e6, loop_delay_p99_ms: loop.percentile(99) / 1e6, loop_delay_max_ms: loop.max / 1e6,
        };
        loop.reset();
        return mark;
      }
      case 'wait':
        return reportOf(await current().done);
      case 'stop':
        current().stop();
        return reportOf(await current().done);
      case 'commits':
        return commits.splice(0);
      case 'peak':
        return { peak_rss_mib: Math.max(peak, rssMiB()), max_rss_mib: peakRssMiB() };
      default:
        throw new Error(`unknown command ${command}`);
    }
  }, async () => {
    clearInterval(sampler);
    loop.disable();
    replay?.stop();
    await replay?.done.catch(() => undefined);
    await server.close();
    await engine.close();
  });
}

if (isChildOf(import.meta.url)) {
  const [loadFolder, replayFolder] = childArgs();
  await main(loadFolder!, replayFolder!);
}
