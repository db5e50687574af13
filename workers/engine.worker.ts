/**
 * Worker entry hosting a whole engine (Node worker_threads): serves the JSON-RPC envelope on the
 * parent port, streams included, so that a service can keep queries and ingestion off its main thread.
 * `workerData`: `{ options?: EngineOptions, data?: string[] }`, the dump paths loaded before serving.
 *
 * The parent port (only it: the worker's owner) also answers `chain::replay`
 * {data: path or paths, speed?: number or "Infinity" (default 1), from?, to?, retain?}: it replays the dump
 * into the worker's engine and replies, once the replay has ended, with its report (counts as JSON
 * numbers, times as ISO-8601). The pushes it causes reach the port before that reply.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions } from '../src/index.node.js';
import { invalidParam } from '../src/rpc/errors.js';
import { encodeTimestamp } from '../src/schema/encode.js';
import { parseTimeParam } from '../src/schema/time.js';
import { retainNanos } from '../src/store/retention.js';

if (!parentPort) throw new Error('engine.worker must run as a worker thread');
const port = parentPort;
const { options = {}, data = [] } = (workerData ?? {}) as { options?: EngineOptions; data?: string[] };
// Requests that arrive while the engine opens wait in the port's queue until serve() listens.
const engine = await createEngine(options);
if (data.length > 0) await engine.load(data);

const REPLAY_PARAMS = ['data', 'speed', 'from', 'to', 'retain'];

async function replay(raw: unknown): Promise<Record<string, unknown>> {
  const params = (raw ?? {}) as Record<string, unknown>;
  if (typeof params !== 'object' || Array.isArray(params)) throw invalidParam('params', 'must be an object of named parameters', REPLAY_PARAMS);
  const unknown = Object.keys(params).find((k) => !REPLAY_PARAMS.includes(k));
  if (unknown) throw invalidParam(unknown, `unknown parameter; allowed: ${REPLAY_PARAMS.join(', ')}`, REPLAY_PARAMS);
  const paths = params.data;
  if (!(typeof paths === 'string' || (Array.isArray(paths) && paths.length > 0 && paths.every((p) => typeof p === 'string')))) {
    throw invalidParam('data', 'must be a dump path or a list of paths');
  }
  const speed = params.speed === undefined ? 1 : params.speed === 'Infinity' ? Infinity : params.speed;
  if (typeof speed !== 'number' || !(speed > 0)) throw invalidParam('speed', 'must be a positive number or "Infinity"');
  for (const name of ['from', 'to']) {
    if (params[name] !== undefined && parseTimeParam(params[name]) === undefined) {
      throw invalidParam(name, `must be Unix seconds or an ISO-8601 date-time, got ${JSON.stringify(params[name])}`);
    }
  }
  const retain = params.retain as number | string | undefined;
  try {
    retainNanos(retain); // checked here, so that a bad value is -32602 on the port
  } catch (error) {
    throw invalidParam('retain', `${(error as Error).message}: seconds, "15m", "2h"... or "all"`);
  }
  const report = await engine.replay(paths as string | string[], {
    speed, from: params.from as string | number | undefined, to: params.to as string | number | undefined,
    retain,
  });
  return {
    read: report.read, ingested: report.ingested, rejected: report.rejected, blocks: report.blocks,
    stopped: report.stopped, seconds: report.seconds, blocksPerSecond: report.blocksPerSecond,
    firstTime: report.firstTime === undefined ? null : encodeTimestamp(report.firstTime),
    lastTime: report.lastTime === undefined ? null : encodeTimestamp(report.lastTime),
    rejections: report.rejections.slice(0, 100), warnings: report.warnings.slice(0, 100),
  };
}

engine.serve(port, { methods: { 'chain::replay': replay } });
