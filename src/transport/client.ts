/**
 * A client for an engine served on a port (`engine.serve(port)`), in this or another thread:
 * the same `request` and `call` as a local engine, and `subscribe` for streams. Every request is
 * posted with a tag that its reply carries back (tags.ts), so a reply can only resolve its own
 * request; pushes are routed by subscription id. A body that cannot be posted (nested deeper than
 * a port carries, or holding a function) rejects with -32600 and leaves nothing pending.
 *
 * The client tells the server what it has read (`chain::ack`, see docs/semantics.md, Streams):
 * after every `ackEvery` pushes of a subscription, and for the rest once the port has been quiet
 * for a moment. A push whose handler returns a promise counts as read when the promise settles.
 */
import type { MethodCall, MethodSubscribe } from '../methods/types.js';
import type { ResponseEntry } from '../rpc/dispatch.js';
import type { WireRecord } from '../schema/encode.js';
import { nestsDeeperThan } from '../rpc/echo.js';
import { ErrorCode, RpcError } from '../rpc/errors.js';
import { MAX_POST_NESTING } from '../rpc/limits.js';
import { isPush, type PushParams } from '../stream/push.js';
import { toEndpoint, type PortLike } from './endpoint.js';
import { asTaggedReply } from './tags.js';

/** Receives the params of each push: data points (wire records `R`) after a block, or the error that ended the subscription. */
export type PushHandler<R = WireRecord> = (push: PushParams<R>) => unknown;

/** An open subscription of a client or a local engine. */
export interface StreamSubscription {
  /** The id the pushes carry. */
  readonly id: number;
  /** Ends it; resolves once the server has (-32004 rejection when it had already ended). */
  unsubscribe(): Promise<void>;
}

/** A port client (`connect`). */
export interface Client {
  /** Sends a body (object or JSON text) and resolves with the response array. */
  request(body: unknown): Promise<ResponseEntry[]>;
  /** Calls one method; resolves with its wire records or rejects with an RpcError. */
  call: MethodCall;
  /** Subscribes to a method's stream; `onPush` gets every push of the subscription. */
  subscribe: MethodSubscribe;
  /** Receives every push, whichever way its subscription was made; returns a function that stops it. */
  onPush(handler: PushHandler): () => void;
  /** Ends this client's subscriptions, stops listening on the port; pending requests reject. */
  close(): void;
}

/** Options of `connect`. */
export interface ConnectOptions {
  /** Acknowledge after this many pushes of a subscription (default 32); keep it well below the server's maxPendingPushes. */
  ackEvery?: number;
  /** Acknowledge the rest after this many milliseconds without an acknowledgement (default 20). */
  ackDelayMs?: number;
}

interface Pending {
  resolve(r: ResponseEntry[]): void;
  reject(e: Error): void;
}

interface Counter {
  received: number;
  acknowledged: number;
}

/** Connects to an engine served on `port`; `close()` it when done (an open port keeps a Node process alive). */
export function connect(port: PortLike, options: ConnectOptions = {}): Client {
  const ackEvery = options.ackEvery ?? 32;
  const ackDelayMs = options.ackDelayMs ?? 20;
  const endpoint = toEndpoint(port);
  const pending = new Map<number, Pending>();
  let nextTag = 1;
  const handlers = new Map<number, PushHandler>();
  const listeners = new Set<PushHandler>();
  const counters = new Map<number, Counter>();
  let ackTimer: ReturnType<typeof setTimeout> | undefined;
  let nextId = 1;
  let closed = false;

  const post = (body: unknown, expectReply: Pending) => {
    if (closed) return expectReply.reject(new Error('client closed'));
    const tag = nextTag++;
    try {
      if (nestsDeeperThan(body, MAX_POST_NESTING)) throw new Error(`it nests deeper than ${MAX_POST_NESTING} levels`);
      pending.set(tag, expectReply);
      endpoint.post({ tag, body });
    } catch (error) {
      pending.delete(tag);
      expectReply.reject(new RpcError({
        code: ErrorCode.InvalidRequest,
        message: `invalid request: the body cannot be posted on a port: ${error instanceof Error ? error.message : String(error)}`,
      }));
    }
  };
  const ignore: Pending = { resolve() {}, reject() {} };

  const acknowledge = (id: number, counter: Counter) => {
    counter.acknowledged = counter.received;
    post({ jsonrpc: '2.0', method: 'chain::ack', params: { subscription: id, received: counter.received } }, ignore);
  };
  const flushAcks = () => {
    ackTimer = undefined;
    if (closed) return;
    for (const [id, counter] of counters) if (counter.received > counter.acknowledged) acknowledge(id, counter);
  };
  const read = (id: number, ended: boolean) => {
    if (closed) return;
    const counter = counters.get(id) ?? { received: 0, acknowledged: 0 };
    counters.set(id, counter);
    counter.received++;
    if (ended) {
      counters.delete(id);
      handlers.delete(id);
    } else if (counter.received - counter.acknowledged >= ackEvery) acknowledge(id, counter);
    else if (!ackTimer) {
      ackTimer = setTimeout(flushAcks, ackDelayMs);
      (ackTimer as { unref?(): void }).unref?.();
    }
  };

  const deliver = (push: PushParams) => {
    const ended = push.error !== undefined;
    const results: unknown[] = [];
    const handler = handlers.get(push.subscription);
    for (const h of [...(handler ? [handler] : []), ...listeners]) {
      try {
        results.push(h(push));
      } catch {
        // a handler's failure is its own; the push was read
      }
    }
    const promises = results.filter((r): r is PromiseLike<unknown> => typeof (r as PromiseLike<unknown>)?.then === 'function');
    if (promises.length === 0) read(push.subscription, ended);
    else Promise.allSettled(promises).then(() => read(push.subscription, ended));
  };

  const unlisten = endpoint.listen((data) => {
    const reply = asTaggedReply(data);
    if (reply) {
      const waiting = pending.get(reply.tag);
      pending.delete(reply.tag);
      waiting?.resolve(typeof reply.response === 'string' ? JSON.parse(reply.response) : reply.response);
      return;
    }
    const message = typeof data === 'string' ? JSON.parse(data) : data;
    if (isPush(message)) deliver(message.params);
  });

  const request = (body: unknown) => new Promise<ResponseEntry[]>((resolve, reject) => post(body, { resolve, reject }));

  async function call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = nextId++;
    const [entry] = await request({ jsonrpc: '2.0', id, method, params });
    if (entry && 'error' in entry) throw new RpcError(entry.error);
    return (entry as { result: unknown }).result;
  }

  return {
    request,
    call: ((method: string, params?: Record<string, unknown>) => call(method, params)) as MethodCall,
    subscribe: ((method: string, params: Record<string, unknown>, onPush: PushHandler) => {
      return new Promise<StreamSubscription>((resolve, reject) => {
        const id = nextId++;
        post({ jsonrpc: '2.0', id, method: 'chain::subscribe', params: { method, params } }, {
          // registered here, in the reply's own message event, before any push of the subscription
          resolve([entry]: ResponseEntry[]) {
            if (!entry || 'error' in entry) return reject(new RpcError(entry ? entry.error : { code: -32603, message: 'internal error: no reply' }));
            const subscription = entry.result as number;
            handlers.set(subscription, onPush);
            resolve({
              id: subscription,
              async unsubscribe() {
                handlers.delete(subscription);
                counters.delete(subscription);
                await call('chain::unsubscribe', { subscription });
              },
            });
          },
          reject,
        });
      });
    }) as MethodSubscribe,
    onPush(handler) {
      listeners.add(handler);
      return () => listeners.delete(handler);
    },
    close() {
      if (closed) return;
      for (const subscription of handlers.keys()) {
        post({ jsonrpc: '2.0', method: 'chain::unsubscribe', params: { subscription } }, ignore);
      }
      closed = true;
      if (ackTimer) clearTimeout(ackTimer);
      handlers.clear();
      unlisten();
      for (const p of pending.values()) p.reject(new Error('client closed'));
      pending.clear();
    },
  };
}
