/** chainlens for Node: the common surface, with DuckDB-WASM's blocking bundle and file paths. */
import { createEngineOn, type Engine, type EngineOptions } from './engine.js';
import { nodePlatform } from './platform/node.js';

export * from './index.js';

/** Creates an engine (Node). */
export function createEngine(options: EngineOptions = {}): Promise<Engine> {
  return createEngineOn(nodePlatform, options);
}

export { serve, DEFAULT_PORT, type Server, type ServerOptions } from './server/server.js';
export { TokenStore, type TokenInfo } from './server/tokens.js';
export { serveAdmin, adminCall, type AdminChannel } from './server/admin.js';
export type { Rate } from './server/rate-limit.js';
export { followSolanaRpc, FollowError, type FollowEvent, type FollowOptions, type FollowReport, type FollowStatus, type Follower } from './live/solana-rpc.js';
