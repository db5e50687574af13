/**
 * The transports every conformance test runs over: the local engine, a real MessageChannel,
 * a port into a real worker_thread hosting an engine (the compiled dist/workers entry), and the
 * server on a loopback port: POST / through an independent JSON-RPC client (json-rpc-2.0), and a
 * WebSocket through `ws`. Each can replay a dump into its engine (the worker's through its
 * owner-only `chain::replay` method); all but HTTP, which cannot push, subscribe to streams.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { connect, createEngine, type Engine, type EngineOptions, type PushHandler, type StreamSubscription } from '../../src/index.node.js';
import type { ResponseEntry } from '../../src/rpc/dispatch.js';
import { JSONRPCClient, JSONRPCErrorException } from 'json-rpc-2.0';
import { RpcError } from '../../src/rpc/errors.js';
import { serve, type Server } from '../../src/index.node.js';
import { callAny } from './call.js';
import { connectWs } from './ws-client.js';

/** Options of a transport's replay (speed: a number, or Infinity). */
export interface TransportReplay {
  speed?: number;
  from?: string;
  to?: string;
}

export interface Transport {
  request(body: unknown): Promise<ResponseEntry[]>;
  call(method: string, params?: Record<string, unknown>): Promise<unknown[]>;
  subscribe(method: string, params: Record<string, unknown>, onPush: PushHandler): Promise<StreamSubscription>;
  /** Replays the dump at `path` into the transport's engine; resolves when it has ended, after its pushes. */
  replay(path: string, options?: TransportReplay): Promise<unknown>;
  close(): Promise<void>;
}

export const ENGINE_WORKER = fileURLToPath(new URL('../../dist/workers/engine.worker.js', import.meta.url));

/** How a transport's engine starts: its options and the dump paths it loads first. */
export interface TransportSetup {
  options?: EngineOptions;
  data?: string[];
}

async function startEngine({ options, data = [] }: TransportSetup): Promise<Engine> {
  const engine = await createEngine(options);
  if (data.length > 0) await engine.load(data);
  return engine;
}

export const TRANSPORTS: Record<string, (setup?: TransportSetup) => Promise<Transport>> = {
  local: async (setup = {}) => {
    const engine = await startEngine(setup);
    return {
      request: (b) => engine.request(b),
      call: (m, p) => engine.call(m, p),
      subscribe: (m, p, onPush) => engine.subscribe(m, p, onPush),
      replay: (path, options) => engine.replay(path, { speed: Infinity, ...options }).done,
      close: () => engine.close(),
    };
  },
  'message channel': async (setup = {}) => {
    const engine = await startEngine(setup);
    const { port1, port2 } = new MessageChannel();
    engine.serve(port1);
    const client = connect(port2);
    return clientOf(engine, client, async () => {
      client.close();
      port1.close();
    });
  },
  'worker port': async (setup = {}) => {
    if (!existsSync(ENGINE_WORKER)) throw new Error(`${ENGINE_WORKER} is missing: run npm run build`);
    const worker = new Worker(ENGINE_WORKER, { workerData: setup });
    const client = connect(worker);
    return {
      request: (b) => client.request(b),
      call: (m, p) => client.call(m, p),
      subscribe: (m, p, onPush) => client.subscribe(m, p, onPush),
      replay: (path, options = {}) =>
        callAny(client, 'chain::replay', { data: path, ...options, speed: options.speed === undefined || options.speed === Infinity ? 'Infinity' : options.speed }),
      async close() {
        client.close();
        await worker.terminate();
      },
    };
  },
  http: async (setup = {}) => {
    const { engine, server, token } = await startServer(setup);
    const post = async (text: string) => {
      const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: text });
      return response.json();
    };
    const rpc: JSONRPCClient = new JSONRPCClient(async (request): Promise<void> => rpc.receive(await post(JSON.stringify(request))));
    return {
      request: async (b) => post(typeof b === 'string' ? b : JSON.stringify(b)),
      async call(m, p) {
        try {
          return await rpc.request(m, p ?? {});
        } catch (error) {
          if (error instanceof JSONRPCErrorException) throw new RpcError({ code: error.code, message: error.message, data: error.data });
          throw error;
        }
      },
      subscribe: () => Promise.reject(new Error('HTTP POST cannot push: subscribe over the websocket transport')),
      replay: (path, options) => engine.replay(path, { speed: Infinity, ...options }).done,
      async close() {
        await server.close();
        await engine.close();
      },
    };
  },
  websocket: async (setup = {}) => {
    const { engine, server, token } = await startServer(setup);
    const client = await connectWs(server.url, token);
    return clientOf(engine, client, async () => {
      await client.close();
      await server.close();
    });
  },
};

/**
 * A transport through a client of a server in this process: requests and streams through the
 * client, replays into the engine; a replay's pushes went out before it ended, so one more round
 * trip lets the client read them all.
 */
function clientOf(engine: Engine, client: Pick<Transport, 'request' | 'call' | 'subscribe'>, closeClient: () => Promise<void>): Transport {
  return {
    request: (b) => client.request(b),
    call: (m, p) => client.call(m, p),
    subscribe: (m, p, onPush) => client.subscribe(m, p, onPush),
    async replay(path, options) {
      const report = await engine.replay(path, { speed: Infinity, ...options }).done;
      await client.call('chain::market::token', {});
      return report;
    },
    async close() {
      await closeClient();
      await engine.close();
    },
  };
}

/** An engine served on an ephemeral loopback port, with a token issued for the test. */
async function startServer(setup: TransportSetup): Promise<{ engine: Engine; server: Server; token: string }> {
  const engine = await startEngine(setup);
  const server = await serve(engine, { port: 0 });
  const { token } = await server.tokens.issue({ label: 'test' });
  return { engine, server, token };
}
