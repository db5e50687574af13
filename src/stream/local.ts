/**
 * `engine.subscribe`: the engine's own stream connection. It runs the same chain::subscribe and
 * chain::unsubscribe envelopes as a port, and hands each push to its subscription's callback.
 */
import { call, dispatch, type DispatchTarget } from '../rpc/dispatch.js';
import { ErrorCode, RpcError, toErrorObject } from '../rpc/errors.js';
import type { PushHandler, StreamSubscription } from '../transport/client.js';
import { StreamConnection, SUBSCRIBE, UNSUBSCRIBE } from './connection.js';
import type { SubscriptionHub } from './hub.js';

/** Local subscriptions with callbacks. */
export class LocalStreams {
  readonly #handlers = new Map<number, PushHandler>();
  readonly #connection: StreamConnection;
  readonly #target: DispatchTarget;

  /** `target`: the engine's methods and context (its stream methods are this connection's). */
  constructor(hub: SubscriptionHub, target: DispatchTarget) {
    this.#connection = new StreamConnection(hub, {
      deliver: (push) => {
        const { subscription, error } = push.params;
        const handler = this.#handlers.get(subscription);
        if (error) this.#handlers.delete(subscription);
        return handler?.(push.params) as PromiseLike<unknown> | undefined;
      },
    });
    this.#target = { ...target, extra: this.#connection.methods };
  }

  /** Subscribes `onPush` to a method's stream; rejects with an RpcError as a port's reply would carry. */
  async subscribe(method: string, params: Record<string, unknown>, onPush: PushHandler): Promise<StreamSubscription> {
    const [entry] = await dispatch({ jsonrpc: '2.0', id: 0, method: SUBSCRIBE, params: { method, params } }, this.#target);
    if (!entry || 'error' in entry) throw new RpcError(entry ? entry.error : { code: ErrorCode.InternalError, message: 'internal error' });
    const id = entry.result as number;
    this.#handlers.set(id, onPush);
    this.#connection.release([id]); // held pushes, if a block was committed meanwhile, go to onPush now
    return {
      id,
      unsubscribe: async () => {
        this.#handlers.delete(id);
        try {
          await call(UNSUBSCRIBE, { subscription: id }, this.#target);
        } catch (error) {
          throw error instanceof RpcError ? error : new RpcError(toErrorObject(error));
        }
      },
    };
  }

  /** Ends every local subscription. */
  close(): void {
    this.#connection.close();
    this.#handlers.clear();
  }
}
