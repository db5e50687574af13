/**
 * A JSON-RPC client over a WebSocket of the server, written the way a user of `ws` would: replies
 * come in request order (the server answers a socket's requests first in, first out), pushes are
 * objects routed by subscription id. A subscription's handler is set in the same turn its reply is
 * read, and pushes read before that (several frames in one read) wait for it, so none is lost.
 */
import WebSocket from 'ws';
import type { ResponseEntry } from '../../src/rpc/dispatch.js';
import { RpcError } from '../../src/rpc/errors.js';
import type { PushParams } from '../../src/stream/push.js';
import type { PushHandler, StreamSubscription } from '../../src/index.node.js';

export interface WsClient {
  readonly socket: WebSocket;
  request(body: unknown): Promise<ResponseEntry[]>;
  call(method: string, params?: Record<string, unknown>): Promise<unknown[]>;
  subscribe(method: string, params: Record<string, unknown>, onPush: PushHandler): Promise<StreamSubscription>;
  close(): Promise<void>;
}

/** Opens a socket to `url` with `token` (in the Authorization header). */
export async function connectWs(url: string, token: string): Promise<WsClient> {
  const socket = new WebSocket(url.replace(/^http/, 'ws'), { headers: { authorization: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
  });
  const replies: ((entries: ResponseEntry[]) => void)[] = [];
  const handlers = new Map<number, PushHandler>();
  const early = new Map<number, PushParams[]>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (Array.isArray(message)) return replies.shift()?.(message);
    const push = message.params as PushParams;
    const handler = handlers.get(push.subscription);
    if (handler) handler(push);
    else early.set(push.subscription, [...(early.get(push.subscription) ?? []), push]);
  });
  const request = (body: unknown, onReply?: (entries: ResponseEntry[]) => void) =>
    new Promise<ResponseEntry[]>((resolve) => {
      replies.push((entries) => {
        onReply?.(entries);
        resolve(entries);
      });
      socket.send(typeof body === 'string' ? body : JSON.stringify(body));
    });
  const call = async (method: string, params: Record<string, unknown> = {}, onReply?: (entries: ResponseEntry[]) => void) => {
    const [entry] = await request({ jsonrpc: '2.0', id: 1, method, params }, onReply);
    if (!entry || 'error' in entry) throw new RpcError(entry ? entry.error : { code: -32603, message: 'no reply' });
    return entry.result as unknown[];
  };
  return {
    socket,
    request: (body) => request(body),
    call: (method, params) => call(method, params),
    async subscribe(method, params, onPush) {
      const id = (await call('chain::subscribe', { method, params }, ([entry]) => {
        if (entry && 'result' in entry) {
          const subscription = entry.result as number;
          handlers.set(subscription, onPush);
          for (const push of early.get(subscription) ?? []) onPush(push);
          early.delete(subscription);
        }
      })) as unknown as number;
      return { id, unsubscribe: async () => void (await call('chain::unsubscribe', { subscription: id }), handlers.delete(id)) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
