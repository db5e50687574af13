/**
 * The subscriptions of one engine. It tells the method engines what is subscribed (StreamDemand),
 * and after every commit turns their per-block updates into pushes: for each block in slot order,
 * each subscription gets the block's new or changed data points of its method that match its
 * params (window, pair, mint), encoded as in a query answer. Query-only params (limit, from, to)
 * are accepted and ignored, as the seed says; `at` is refused (a stream is live).
 */
import type { CommittedChunk, PipelineStreams } from '../ingest/pipeline.js';
import type { MethodContext } from '../methods/context.js';
import type { MethodDefinition } from '../methods/method.js';
import { checkedParams, methodOf } from '../rpc/dispatch.js';
import { ErrorCode, invalidParam } from '../rpc/errors.js';
import type { Params } from '../rpc/params.js';
import { encodeInteger, encodeRecords, encodeTimestamp, type WireRecord } from '../schema/encode.js';
import type { RecordSchema } from '../schema/records.js';
import type { StreamDemand, StreamUpdate } from './updates.js';
import { TimeSlices } from '../platform/event-loop.js';
import { DEFAULT_STREAM_LIMITS, Subscription, type PushSink, type StreamLimits } from './subscription.js';

/** What the hub needs from its engine. */
export interface HubOptions {
  readonly methods: ReadonlyMap<string, MethodDefinition>;
  readonly context: MethodContext;
  readonly limits?: Partial<StreamLimits>;
  /** Runs a task between commits (the ingest pipeline's queue), so that demand never changes mid-chunk. */
  readonly betweenCommits: <T>(task: () => Promise<T> | T) => Promise<T>;
  /** Throws (an RpcError) for a stream the engine cannot serve, e.g. a window wider than retention keeps. */
  readonly admit?: (method: string, params: Params) => void;
}

const TOKEN_METHOD = 'chain::market::token';
const NO_WINDOWS: ReadonlySet<string> = new Set();

/** The engine's subscriptions, and the streams' side of the ingest pipeline. */
export class SubscriptionHub implements StreamDemand, PipelineStreams {
  readonly limits: StreamLimits;
  #nextId = 1;
  readonly #subscriptions = new Map<number, Subscription>();
  readonly #counts = new Map<string, number>();
  readonly #windows = new Map<string, Map<string, number>>();
  readonly #windowSets = new Map<string, ReadonlySet<string>>();

  constructor(private readonly options: HubOptions) {
    this.limits = { ...DEFAULT_STREAM_LIMITS, ...options.limits };
  }

  get demand(): StreamDemand {
    return this;
  }

  /** Open subscriptions. */
  get size(): number {
    return this.#subscriptions.size;
  }

  has(method: string): boolean {
    return (this.#counts.get(method) ?? 0) > 0;
  }

  windows(method: string): ReadonlySet<string> {
    return this.#windowSets.get(method) ?? NO_WINDOWS;
  }

  /**
   * Opens a subscription to `method` with `params` (validated like a query's; -32601 for an unknown
   * method, -32602 for bad params). Its pushes are held until `release()` is called on it.
   */
  async subscribe(method: unknown, params: unknown, sink: PushSink): Promise<Subscription> {
    if (typeof method !== 'string') throw invalidParam('method', 'must be the name of a data method', [...this.options.methods.keys()]);
    const definition = methodOf(method, { methods: this.options.methods });
    const validated = checkedParams(definition, params);
    if (validated.at !== undefined) throw invalidParam('at', 'a stream is live: subscribe without at, or query with at', []);
    return this.options.betweenCommits(() => {
      this.options.admit?.(method, validated);
      const subscription = new Subscription(this.#nextId++, definition, validated, sink, this.limits, (s) => this.#forget(s));
      this.#subscriptions.set(subscription.id, subscription);
      this.#count(method, validated.window, 1);
      return subscription;
    });
  }

  /** Ends subscription `id` (no last push); false when there is no such open subscription. */
  unsubscribe(id: number): boolean {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) return false;
    subscription.close();
    this.#forget(subscription);
    return true;
  }

  /** Ends every subscription (the engine closes). */
  closeAll(): void {
    for (const id of [...this.#subscriptions.keys()]) this.unsubscribe(id);
  }

  async committed(chunk: CommittedChunk): Promise<void> {
    if (this.#subscriptions.size === 0) return;
    try {
      // a record pushed to several subscriptions of its method is encoded once; those new to a push, together
      const encoded = new Map<object, WireRecord>();
      const encode = (definition: MethodDefinition, records: readonly object[]): WireRecord[] => {
        if (this.#counts.get(definition.name) === 1) return encodeRecords(definition.record as RecordSchema, records as never[]);
        const fresh = records.filter((record) => !encoded.has(record));
        if (fresh.length > 0) {
          const wires = encodeRecords(definition.record as RecordSchema, fresh as never[]);
          for (let i = 0; i < fresh.length; i++) encoded.set(fresh[i]!, wires[i]!);
        }
        return records.map((record) => encoded.get(record)!);
      };
      const updates = chunk.updates;
      if (chunk.tokens && this.has(TOKEN_METHOD)) updates.unshift(await this.#tokenUpdate(chunk));
      // the event loop runs between slices of the pushes; a subscription asked for meanwhile waits for the commit's end (betweenCommits)
      const slices = new TimeSlices();
      for (let i = 0; i < updates.length; ) {
        let j = i + 1;
        while (j < updates.length && updates[j]!.slot === updates[i]!.slot) j++;
        const group = updates.slice(i, j);
        const { slot, timestamp } = updates[i]!;
        const block = slot === undefined ? undefined : { slot: encodeInteger(slot), timestamp: encodeTimestamp(timestamp!) };
        for (const subscription of [...this.#subscriptions.values()]) {
          if (slices.spent) await slices.next();
          const records: object[] = [];
          for (const update of group) {
            if (update.method !== subscription.method) continue;
            const answered = update.answer ? await update.answer(subscription.params) : update.records;
            for (const record of answered) {
              if (subscription.matches(record as Record<string, unknown>)) records.push(record);
            }
          }
          if (records.length > 0) subscription.push(encode(subscription.definition, records), block);
        }
        i = j;
      }
    } catch (error) {
      // a bug, not the subscriber's fault: say so rather than go quiet
      for (const subscription of [...this.#subscriptions.values()]) {
        subscription.end({ code: ErrorCode.InternalError, message: 'internal error: the stream stopped', data: { reason: (error as Error)?.message ?? String(error) } });
      }
    }
  }

  /** The chunk's tokens as the token method answers them (tokens are not versioned in time). */
  async #tokenUpdate(chunk: CommittedChunk): Promise<StreamUpdate> {
    const mints = new Set(chunk.tokens!.getChild('mint')!.toArray() as string[]);
    const definition = this.options.methods.get(TOKEN_METHOD)!;
    const all = await definition.handle(checkedParams(definition, {}), this.options.context);
    return { method: TOKEN_METHOD, records: all.filter((t) => mints.has((t as { mint: string }).mint)) };
  }

  #forget(subscription: Subscription): void {
    if (this.#subscriptions.get(subscription.id) !== subscription) return;
    this.#subscriptions.delete(subscription.id);
    this.#count(subscription.method, subscription.params.window, -1);
  }

  /** Adjusts the open count of `method` (and of its window). */
  #count(method: string, window: string | undefined, delta: 1 | -1): void {
    const count = (this.#counts.get(method) ?? 0) + delta;
    this.#counts.set(method, count);
    if (window !== undefined) {
      const windows = this.#windows.get(method) ?? new Map<string, number>();
      this.#windows.set(method, windows);
      const n = (windows.get(window) ?? 0) + delta;
      if (n === 0) windows.delete(window);
      else windows.set(window, n);
      this.#windowSets.set(method, new Set(windows.keys()));
    }
  }
}
