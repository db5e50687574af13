/**
 * The engine: composes the method table, the context its handlers read and the transports.
 * Platform pieces (kernel workers, the DuckDB bundle) are injected by the entry files
 * (index.node.ts, index.browser.ts), so this module runs anywhere.
 */
import { DEFAULT_SETTINGS, type EngineSettings, type MethodContext } from './methods/context.js';
import { METHOD_TABLE } from './methods/index.js';
import { call, dispatchText, type DispatchTarget, type ResponseEntry } from './rpc/dispatch.js';
import { RpcError, toErrorObject } from './rpc/errors.js';
import type { PortLike } from './transport/endpoint.js';
import { servePort, type PortServer } from './transport/port-server.js';

/** Options of `createEngine`. */
export interface EngineOptions extends Partial<EngineSettings> {}

/** An in-process chainlens engine. */
export interface Engine {
  /** Answers a JSON-RPC body (parsed object or JSON text) with the response array. */
  request(body: unknown): Promise<ResponseEntry[]>;
  /** Calls one method; resolves with the result array, rejects with an RpcError carrying the error object. */
  call(method: string, params?: Record<string, unknown>): Promise<unknown[]>;
  /** Serves the JSON-RPC envelope on a MessagePort (or worker port); returns a handle to stop. */
  serve(port: PortLike): PortServer;
  /** Stops every server and releases workers and the store. */
  close(): Promise<void>;
}

/** Creates an engine over an empty store. */
export async function createEngine(options: EngineOptions = {}): Promise<Engine> {
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, ...options };
  const context: MethodContext = { options: settings };
  const target: DispatchTarget = { methods: METHOD_TABLE, context };
  const servers = new Set<PortServer>();
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('engine is closed');
  };
  return {
    request(body) {
      ensureOpen();
      return dispatchText(body, target);
    },
    async call(method, params = {}) {
      ensureOpen();
      try {
        return (await call(method, params, target)) as unknown[];
      } catch (error) {
        throw error instanceof RpcError ? error : new RpcError(toErrorObject(error));
      }
    },
    serve(port) {
      ensureOpen();
      const server = servePort(port, (body) => dispatchText(body, target));
      servers.add(server);
      return {
        close() {
          server.close();
          servers.delete(server);
        },
      };
    },
    async close() {
      closed = true;
      for (const server of servers) server.close();
      servers.clear();
    },
  };
}
