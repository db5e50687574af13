/**
 * Worker entry hosting a whole engine (Node worker_threads): serves the JSON-RPC envelope on the
 * parent port, so a service can keep queries and ingestion off its main thread.
 * `workerData`: `{ options?: EngineOptions, data?: string[] }`, the dump paths loaded before serving.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions } from '../src/index.node.js';

if (!parentPort) throw new Error('engine.worker must run as a worker thread');
const port = parentPort;
const { options = {}, data = [] } = (workerData ?? {}) as { options?: EngineOptions; data?: string[] };
// Requests that arrive while the engine opens wait in the port's queue until serve() listens.
const engine = await createEngine(options);
if (data.length > 0) await engine.load(data);
engine.serve(port);
