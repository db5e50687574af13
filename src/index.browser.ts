/** chainlens for browsers: the common surface, with DuckDB-WASM's worker bundle. */
import { createEngineOn, type Engine, type EngineOptions } from './engine.js';
import { browserPlatform } from './platform/browser.js';

export * from './index.js';

/** Creates an engine (browser). */
export function createEngine(options: EngineOptions = {}): Promise<Engine> {
  return createEngineOn(browserPlatform, options);
}
