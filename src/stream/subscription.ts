/**
 * One subscription: a method with validated params, bound to the sink of its connection (a port,
 * or a local callback), with the bounded queue that keeps a slow subscriber from holding the
 * engine back (docs/semantics.md, Streams).
 *
 * Nothing ever waits on a subscriber. Each push is handed to the sink at once and counted as
 * pending until the subscriber is done with it: a port subscriber acknowledges what it has read
 * with `chain::ack` (the client does so by itself), an async local callback settles its promise.
 * When a push would take the pending count or bytes over the limit, the subscription ends instead:
 * the sink gets a last push carrying the error (-32005), and the subscription is dropped.
 */
import { ErrorCode, type RpcErrorObject } from '../rpc/errors.js';
import type { Params } from '../rpc/params.js';
import type { WireRecord } from '../schema/encode.js';
import type { MethodDefinition } from '../methods/method.js';
import { PUSH_METHOD, type PushMessage, type PushParams } from './push.js';

/** Where a connection's pushes go. */
export interface PushSink {
  /**
   * Hands over one push. Returns how it stays pending: the bytes it holds until the receiver
   * acknowledges it (a port), a promise that settles when the receiver is done (an async
   * callback), or undefined when it was consumed on the spot.
   */
  deliver(push: PushMessage): number | PromiseLike<unknown> | undefined | void;
}

/** Bounds of a subscription's queue of pushes not yet read. */
export interface StreamLimits {
  /** Pushes handed over and not yet acknowledged (default 1000). */
  maxPendingPushes: number;
  /** Bytes of JSON text posted and not yet acknowledged, ports only (default 16 MiB). */
  maxPendingBytes: number;
}

/** The bounds when the engine option `streams` does not set them. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxPendingPushes: 1000, maxPendingBytes: 16 * 1024 * 1024 };

/** An open subscription; made and dropped by the hub. */
export class Subscription {
  #open = true;
  /** Pushes made before the connection released the subscription (its id not yet known to the subscriber). */
  #held: PushMessage[] | undefined = [];
  /** Acknowledged delivery: pushes sent and acknowledged so far, and the sizes of the unacknowledged ones. */
  #sent = 0;
  #acknowledged = 0;
  #sizes: number[] = [];
  #sizesHead = 0;
  #pendingBytes = 0;
  /** Async local deliveries not settled yet. */
  #unsettled = 0;

  constructor(
    readonly id: number,
    readonly definition: MethodDefinition,
    readonly params: Params,
    private readonly sink: PushSink,
    private readonly limits: StreamLimits,
    /** Called once when the subscription ends by itself (queue full, sink failure). */
    private readonly onEnd: (subscription: Subscription) => void,
  ) {}

  get method(): string {
    return this.definition.name;
  }

  get open(): boolean {
    return this.#open;
  }

  /** Pushes handed over and not yet read. */
  get pending(): number {
    return this.#sent - this.#acknowledged + this.#unsettled + (this.#held?.length ?? 0);
  }

  /** Whether a record belongs to this subscription's stream (its window, pair or mint). */
  matches(record: Record<string, unknown>): boolean {
    const p = this.params;
    if (p.windowNs !== undefined && record.window_duration !== p.windowNs) return false;
    if (p.base !== undefined && record.base !== p.base) return false;
    if (p.quote !== undefined && record.quote !== p.quote) return false;
    if (p.mint !== undefined && record.mint !== p.mint) return false;
    return true;
  }

  /** Pushes data points; ends the subscription instead when its queue is full. */
  push(result: WireRecord[], block?: PushParams['block']): void {
    if (!this.#open) return;
    if (this.pending >= this.limits.maxPendingPushes || this.#pendingBytes >= this.limits.maxPendingBytes) {
      this.end({
        code: ErrorCode.RateLimited,
        message: `subscription ended: the subscriber fell ${this.pending} pushes behind (the limit is ${this.limits.maxPendingPushes} pushes or ${this.limits.maxPendingBytes} bytes not yet read)`,
        data: { reason: 'slow subscriber', pending: this.pending, pendingBytes: this.#pendingBytes, ...this.limits },
      });
      return;
    }
    const params: PushParams = block ? { subscription: this.id, result, block } : { subscription: this.id, result };
    this.#send({ jsonrpc: '2.0', method: PUSH_METHOD, params });
  }

  /** Lets pushes through to the sink (the subscriber now knows the id); held ones go first. */
  release(): void {
    const held = this.#held;
    this.#held = undefined;
    for (const push of held ?? []) if (this.#open) this.#deliver(push);
  }

  /** The subscriber has read `received` pushes of this subscription in all (cumulative). */
  acknowledge(received: number): void {
    const target = Math.min(received, this.#sent);
    while (this.#acknowledged < target) {
      this.#pendingBytes -= this.#sizes[this.#sizesHead++] ?? 0;
      this.#acknowledged++;
    }
    if (this.#sizesHead > 1024 && this.#sizesHead * 2 > this.#sizes.length) {
      this.#sizes = this.#sizes.slice(this.#sizesHead);
      this.#sizesHead = 0;
    }
  }

  /** Ends the subscription; with an error, the subscriber gets one last push saying why. */
  end(error?: RpcErrorObject): void {
    if (!this.#open) return;
    this.#open = false;
    if (error) {
      const push: PushMessage = { jsonrpc: '2.0', method: PUSH_METHOD, params: { subscription: this.id, error } };
      if (this.#held) this.#held.push(push);
      else this.#deliverQuietly(push);
    }
    this.onEnd(this);
  }

  /** Drops the subscription without a last push (unsubscribed, connection closed). */
  close(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#held = undefined;
  }

  #send(push: PushMessage): void {
    if (this.#held) this.#held.push(push);
    else this.#deliver(push);
  }

  #deliver(push: PushMessage): void {
    let pending;
    try {
      pending = this.sink.deliver(push);
    } catch (error) {
      this.end({ code: ErrorCode.InternalError, message: 'subscription ended: the subscriber failed on a push', data: { reason: String((error as Error)?.message ?? error) } });
      return;
    }
    if (typeof pending === 'number') {
      this.#sent++;
      this.#sizes.push(pending);
      this.#pendingBytes += pending;
    } else if (pending && typeof pending.then === 'function') {
      this.#unsettled++;
      const settle = () => {
        this.#unsettled--;
      };
      pending.then(settle, (error: unknown) => {
        settle();
        this.end({ code: ErrorCode.InternalError, message: 'subscription ended: the subscriber failed on a push', data: { reason: String((error as Error)?.message ?? error) } });
      });
    }
  }

  #deliverQuietly(push: PushMessage): void {
    try {
      const pending = this.sink.deliver(push);
      if (pending && typeof pending === 'object' && typeof pending.then === 'function') pending.then(undefined, () => undefined);
    } catch {
      // the subscription is over: nothing more to tell
    }
  }
}
