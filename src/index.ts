/** chainlens: the platform-independent public surface. */
export { createEngine, type Engine, type EngineOptions } from './engine.js';
export { connect, type Client } from './transport/client.js';
export type { PortLike } from './transport/endpoint.js';
export { ErrorCode, RpcError, type RpcErrorObject } from './rpc/errors.js';
export type { ResponseEntry } from './rpc/dispatch.js';
export { METHODS } from './methods/index.js';
export * as schema from './schema/records.js';
