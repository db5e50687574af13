/**
 * Worker entry hosting a whole engine (Node worker_threads): serves the JSON-RPC envelope on the
 * parent port, so a service can keep queries and ingestion off its main thread.
 * Engine options come as `workerData`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createEngine, type EngineOptions } from '../src/index.node.js';

if (!parentPort) throw new Error('engine.worker must run as a worker thread');
const port = parentPort;
// Requests that arrive while the engine opens are buffered by the port until serve() listens.
const engine = await createEngine((workerData ?? {}) as EngineOptions);
engine.serve(port);
