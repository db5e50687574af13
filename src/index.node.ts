/** chainlens for Node: the common surface, with DuckDB-WASM's blocking bundle and file paths. */
import { createEngineOn, type Engine, type EngineOptions } from './engine.js';
import { nodePlatform } from './platform/node.js';

export * from './index.js';

/** Creates an engine (Node). */
export function createEngine(options: EngineOptions = {}): Promise<Engine> {
  return createEngineOn(nodePlatform, options);
}
