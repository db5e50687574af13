/**
 * The stream methods of one connection (a served port, or the local engine's own): its
 * subscriptions live and die with it.
 *
 * - `chain::subscribe` {method, params} -> the subscription id (an integer);
 * - `chain::unsubscribe` {subscription} -> true; -32004 when the connection has no such subscription;
 * - `chain::ack` {subscription, received}: the subscriber has read `received` pushes of that
 *   subscription in all (cumulative); sent as a notification. The port client sends it by itself.
 *
 * A subscription's pushes are held until the transport has delivered the reply with its id
 * (`release()`), so no push ever arrives before the subscriber knows what it belongs to.
 */
import type { ExtraHandler } from '../rpc/dispatch.js';
import { cut, echo } from '../rpc/echo.js';
import { ErrorCode, invalidParam, RpcError } from '../rpc/errors.js';
import type { SubscriptionHub } from './hub.js';
import type { PushSink, Subscription } from './subscription.js';

/** The stream methods' names. */
export const SUBSCRIBE = 'chain::subscribe';
export const UNSUBSCRIBE = 'chain::unsubscribe';
export const ACK = 'chain::ack';

function objectParams(params: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (params === undefined) params = {};
  if (params === null || typeof params !== 'object' || Array.isArray(params)) {
    throw invalidParam('params', 'must be an object of named parameters', allowed);
  }
  for (const name of Object.keys(params)) {
    if (!allowed.includes(name)) throw invalidParam(cut(name), `unknown parameter; allowed: ${allowed.join(', ')}`, allowed);
  }
  return params as Record<string, unknown>;
}

function subscriptionId(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidParam('subscription', `must be a subscription id (a positive integer), got ${echo(value)}`);
  }
  return value;
}

/** -32004. */
export function subscriptionNotFound(id: number): RpcError {
  return new RpcError({ code: ErrorCode.SubscriptionNotFound, message: `subscription not found: ${id}`, data: { subscription: id } });
}

/**
 * The stream methods where nothing can be pushed (`engine.request`): chain::subscribe says where
 * streams are; there is no subscription to end or acknowledge.
 */
export const NO_PUSH_METHODS: ReadonlyMap<string, ExtraHandler> = new Map<string, ExtraHandler>([
  [SUBSCRIBE, () => {
    throw new RpcError({
      code: ErrorCode.MethodNotFound,
      message: `method not available here: '${SUBSCRIBE}' needs a connection that can receive pushes: engine.subscribe(), a port served by engine.serve(), or a WebSocket of the server`,
      data: { method: SUBSCRIBE },
    });
  }],
  [UNSUBSCRIBE, (params) => {
    throw subscriptionNotFound(subscriptionId(objectParams(params, ['subscription']).subscription));
  }],
  [ACK, (params) => {
    throw subscriptionNotFound(subscriptionId(objectParams(params, ['subscription', 'received']).subscription));
  }],
]);

/** The subscriptions of one connection, and its stream methods (dispatch's extra methods). */
export class StreamConnection {
  readonly #subscriptions = new Map<number, Subscription>();
  readonly #unreleased: Subscription[] = [];
  #closed = false;
  /** chain::subscribe, chain::unsubscribe and chain::ack, bound to this connection. */
  readonly methods: ReadonlyMap<string, ExtraHandler>;

  constructor(
    private readonly hub: SubscriptionHub,
    private readonly sink: PushSink,
  ) {
    this.methods = new Map<string, ExtraHandler>([
      [SUBSCRIBE, (params) => this.#subscribe(params)],
      [UNSUBSCRIBE, (params) => this.#unsubscribe(params)],
      [ACK, (params) => this.#ack(params)],
    ]);
  }

  /** Lets the pushes of subscriptions `ids` through: their ids have reached the subscriber. */
  release(ids: Iterable<number>): void {
    for (const id of ids) {
      const k = this.#unreleased.findIndex((s) => s.id === id);
      if (k >= 0) this.#unreleased.splice(k, 1)[0]!.release();
    }
  }

  /** Releases the subscriptions a reply made: those whose id is the result of one of its entries. */
  replied(response: readonly unknown[]): void {
    if (this.#unreleased.length === 0) return;
    const ids: number[] = [];
    for (const entry of response) {
      const result = (entry as { result?: unknown } | null)?.result;
      if (typeof result === 'number') ids.push(result);
    }
    this.release(ids);
  }

  /** Ends every subscription of the connection (the port closed, the server stopped). */
  close(): void {
    this.#closed = true;
    this.#unreleased.length = 0;
    for (const id of [...this.#subscriptions.keys()]) this.hub.unsubscribe(id);
    this.#subscriptions.clear();
  }

  async #subscribe(raw: unknown): Promise<number> {
    const { method, params } = objectParams(raw, ['method', 'params']);
    if (this.#closed) throw new RpcError({ code: ErrorCode.InvalidRequest, message: 'invalid request: the connection is closed' });
    for (const [id, s] of this.#subscriptions) if (!s.open) this.#subscriptions.delete(id); // ended by themselves
    const subscription = await this.hub.subscribe(method, params, this.sink);
    if (this.#closed) {
      this.hub.unsubscribe(subscription.id);
      throw new RpcError({ code: ErrorCode.InvalidRequest, message: 'invalid request: the connection is closed' });
    }
    this.#subscriptions.set(subscription.id, subscription);
    this.#unreleased.push(subscription);
    return subscription.id;
  }

  #unsubscribe(raw: unknown): true {
    const id = subscriptionId(objectParams(raw, ['subscription']).subscription);
    const subscription = this.#subscriptions.get(id);
    this.#subscriptions.delete(id);
    if (!subscription || !this.hub.unsubscribe(id)) throw subscriptionNotFound(id);
    return true;
  }

  #ack(raw: unknown): true {
    const { subscription, received } = objectParams(raw, ['subscription', 'received']);
    const id = subscriptionId(subscription);
    if (typeof received !== 'number' || !Number.isSafeInteger(received) || received < 0) {
      throw invalidParam('received', `must be the count of pushes read (an integer >= 0), got ${echo(received)}`);
    }
    const open = this.#subscriptions.get(id);
    if (!open?.open) throw subscriptionNotFound(id);
    open.acknowledge(received);
    return true;
  }
}
