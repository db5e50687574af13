/**
 * The admin channel: token issue, revoke and list for a running server, on a Unix domain socket
 * (a named pipe on Windows) that only the server's user can open (mode 0600), never on the public
 * port. One JSON-RPC request per line, one response object per line:
 * `admin::token::issue` {label?, demo?} -> {token, info}; `admin::token::revoke` {id} -> info;
 * `admin::token::list` {} -> [info]. `chainlens token` is its client.
 */
import { chmod, mkdir, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createConnection, createServer, type Server as NetServer } from 'node:net';
import { createInterface } from 'node:readline';
import { ErrorCode, type RpcErrorObject } from '../rpc/errors.js';
import type { TokenInfo, TokenStore } from './tokens.js';

type AdminHandler = (params: Record<string, unknown>) => Promise<unknown> | unknown;

const adminMethods = (tokens: TokenStore): Record<string, AdminHandler> => ({
  'admin::token::issue': ({ label, demo }) => {
    if (label !== undefined && typeof label !== 'string') throw new TypeError('label must be text');
    return tokens.issue({ label: label as string | undefined, demo: demo === true });
  },
  'admin::token::revoke': ({ id }) => {
    if (typeof id !== 'string') throw new TypeError('id must be a token id');
    return tokens.revoke(id);
  },
  'admin::token::list': () => tokens.list(),
});

/** A running admin channel. */
export interface AdminChannel {
  readonly path: string;
  close(): Promise<void>;
}

/** Opens the admin channel of `tokens` at `path` (a stale socket file there is replaced). */
export async function serveAdmin(tokens: TokenStore, path: string): Promise<AdminChannel> {
  const methods = adminMethods(tokens);
  if (process.platform !== 'win32') {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // a live server already there keeps its socket: refuse rather than steal it
    if (await reachable(path)) throw new Error(`another server's admin channel is open at ${path}`);
    await rm(path, { force: true });
  }
  const server: NetServer = createServer((socket) => {
    const lines = createInterface({ input: socket, crlfDelay: Infinity });
    lines.on('line', async (line) => {
      let id: unknown = null;
      let reply: object;
      try {
        const request = JSON.parse(line) as { id?: unknown; method?: unknown; params?: unknown };
        id = request.id ?? null;
        const handler = typeof request.method === 'string' && Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
        if (!handler) throw Object.assign(new Error(`unknown admin method ${String(request.method).slice(0, 64)}`), { code: ErrorCode.MethodNotFound });
        reply = { jsonrpc: '2.0', id, result: await handler((request.params ?? {}) as Record<string, unknown>) };
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        reply = { jsonrpc: '2.0', id, error: { code: typeof code === 'number' ? code : ErrorCode.InvalidParams, message: (error as Error).message } };
      }
      if (socket.writable) socket.write(JSON.stringify(reply) + '\n');
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  if (process.platform !== 'win32') await chmod(path, 0o600);
  return {
    path,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whether a server answers at `path`. */
function reachable(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** An admin call failed: the channel's error object. */
export class AdminError extends Error {
  constructor(readonly error: RpcErrorObject) {
    super(error.message);
  }
}

/** Calls the admin channel at `path`; rejects with the connection error (ENOENT, ECONNREFUSED) when no server is there. */
export function adminCall(path: string, method: 'admin::token::issue', params: { label?: string; demo?: boolean }): Promise<{ token: string; info: TokenInfo }>;
export function adminCall(path: string, method: 'admin::token::revoke', params: { id: string }): Promise<TokenInfo>;
export function adminCall(path: string, method: 'admin::token::list', params?: object): Promise<TokenInfo[]>;
export function adminCall(path: string, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) + '\n');
      createInterface({ input: socket }).once('line', (line) => {
        socket.end();
        const reply = JSON.parse(line) as { result?: unknown; error?: RpcErrorObject };
        if (reply.error) reject(new AdminError(reply.error));
        else resolve(reply.result);
      });
    });
    socket.once('close', () => reject(new Error(`the admin channel at ${path} closed without an answer`)));
  });
}
