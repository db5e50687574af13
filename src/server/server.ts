/**
 * `serve(engine, options)`: the hosted service's face (docs/semantics.md, Server). POST / with a
 * JSON-RPC body is answered by the engine's one dispatch core, byte for byte what `engine.request`
 * answers; a WebSocket on the same port carries the same requests and the streams. Every request
 * needs a bearer token (tokens.ts); a demo token is rate-limited (rate-limit.ts).
 *
 * What is checked, in order, and answered with a status and a one-entry error array:
 * path (404), method (405), token (401, -32001), demo rate (429, -32005), Content-Type (415),
 * body size (413); a body that is not JSON is a 200 with -32700, as the local call answers it.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../engine.js';
import { ErrorCode } from '../rpc/errors.js';
import { admit } from './access.js';
import { DEFAULT_DEMO_RATE, RateLimiter, type Rate } from './rate-limit.js';
import { errorBody, errorEntries, INTERNAL_ERROR, sendJson } from './responses.js';
import { TokenStore } from './tokens.js';

/** Options of `serve`. */
export interface ServerOptions {
  /** Address to bind (default 127.0.0.1: loopback only). */
  host?: string;
  /** Port (default 8787; 0 picks a free one: see `server.port`). */
  port?: number;
  /** The tokens (default: an empty in-memory store; issue with `server.tokens.issue()`). */
  tokens?: TokenStore;
  /** The demo tokens' rate (default 10 requests/s, bursts of 20). */
  demoRate?: Rate;
  /** Largest request body, and WebSocket message, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Origins whose pages may call (CORS, and WebSocket Origin checks); default none. */
  corsOrigins?: readonly string[];
  /** A client must send its request within this (ms; default 10,000), its headers within `headersTimeoutMs` (default 5,000). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** A WebSocket that does not answer a ping within this (ms; default 30,000) is dropped. */
  heartbeatMs?: number;
  /** How long `close()` waits for requests and sockets to finish before cutting them (ms; default 10,000). */
  shutdownGraceMs?: number;
}

/** A running server. */
export interface Server {
  /** `http://host:port/`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly tokens: TokenStore;
  /** Open WebSockets. */
  readonly sockets: number;
  /**
   * Stops accepting, lets the requests under way finish, closes the WebSockets with 1001; resolves
   * once all is closed. The engine stays open (its owner closes it).
   */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8787;
/** Loopback only unless told otherwise. */
export const DEFAULT_HOST = '127.0.0.1';
const DEFAULT_MAX_BODY = 1024 * 1024;

/** Starts the HTTP + WebSocket server for `engine`; resolves once it listens. */
export async function serve(engine: Engine, options: ServerOptions = {}): Promise<Server> {
  const host = options.host ?? DEFAULT_HOST;
  const tokens = options.tokens ?? (await TokenStore.open());
  const limiter = new RateLimiter(options.demoRate ?? DEFAULT_DEMO_RATE);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const origins = new Set(options.corsOrigins ?? []);
  const grace = options.shutdownGraceMs ?? 10_000;
  let closing: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();

  const corsHeaders = (origin: string | undefined): Record<string, string> =>
    origin !== undefined && origins.has(origin) ? { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' } : {};
  // `ws` is loaded when a server starts, not with the library: an engine that never serves does not pay for it
  const { SocketServer } = await import('./websocket.js');
  const sockets = new SocketServer({
    engine, tokens, limiter, maxPayloadBytes: maxBody, heartbeatMs: options.heartbeatMs ?? 30_000,
    // a page of a listed origin, or of the server's own (a page it would serve), may open a socket
    originAllowed: (origin, hostHeader) => origin === undefined || origins.has(origin) || origin === `http://${hostHeader}`,
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const cors = corsHeaders(req.headers.origin);
    const refuse = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
      sendJson(res, status, errorBody({ code, message }), { ...cors, ...headers });
    if (closing) res.shouldKeepAlive = false;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== '/') return refuse(404, ErrorCode.InvalidRequest, `not found: ${path.slice(0, 64)}; JSON-RPC is POST /`);
    if (req.method === 'OPTIONS' && Object.keys(cors).length > 0) {
      res.writeHead(204, {
        ...cors, 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Authorization, Content-Type', 'Access-Control-Max-Age': '600',
      });
      return void res.end();
    }
    if (req.method !== 'POST') return refuse(405, ErrorCode.InvalidRequest, `method not allowed: ${req.method}; JSON-RPC is POST /`, { Allow: 'POST' });
    const admitted = admit(req.headers, tokens, limiter);
    if ('refused' in admitted) return sendJson(res, admitted.refused.status, errorBody(admitted.refused.error), { ...cors, ...admitted.refused.headers });
    const type = req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') return refuse(415, ErrorCode.InvalidRequest, `unsupported media type: ${type ?? 'none'}; send Content-Type: application/json`);
    const tooLarge = () => refuse(413, ErrorCode.InvalidRequest, `request too large: the body limit is ${maxBody} bytes`, { Connection: 'close' });
    if (Number(req.headers['content-length'] ?? 0) > maxBody) return tooLarge();
    const body = await readBody(req, maxBody);
    if (body === undefined) return tooLarge();
    const response = await engine.request(body).catch(() => errorEntries(INTERNAL_ERROR));
    sendJson(res, 200, JSON.stringify(response), cors);
  }

  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  const headersTimeout = Math.min(options.headersTimeoutMs ?? 5_000, requestTimeout);
  // Node checks those timeouts on this interval (its default, 30 s, would let a slow client linger)
  const server = createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1_000, headersTimeout / 2)) }, (req, res) => {
    const done = handle(req, res)
      .catch(() => sendJson(res, 500, errorBody(INTERNAL_ERROR)))
      .finally(() => inFlight.delete(done));
    inFlight.add(done);
  });
  server.on('upgrade', (req, socket, head) => {
    if (closing) return void socket.destroy();
    sockets.upgrade(req, socket, head);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    // a client too slow with its request (408), headers too large (431), or not HTTP at all (400)
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shown}:${port}/`,
    host,
    port,
    tokens,
    get sockets() {
      return sockets.size;
    },
    close() {
      return (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.all([
          sockets.close(grace),
          Promise.race([Promise.all(inFlight), new Promise((resolve) => setTimeout(resolve, grace).unref())]),
        ]);
        server.closeAllConnections();
        await stopped;
      })());
    },
  };
}

/** The body as text, or undefined when it is larger than `limit` bytes (reading stops there). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        return resolve(undefined);
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
