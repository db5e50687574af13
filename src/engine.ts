/**
 * The engine: composes the store, the ingest pipeline, the method table and the transports.
 * Platform pieces (the DuckDB bundle, file paths) are injected by the entry files
 * (index.node.ts, index.browser.ts), so this module runs anywhere.
 */
import { Table } from 'apache-arrow';
import { loadInputs, type LoadOptions } from './ingest/load.js';
import { IngestPipeline, type IngestReport } from './ingest/pipeline.js';
import { expandSource, type LoadSource } from './ingest/sources.js';
import { validateRecordBatches } from './ingest/files/arrow-rows.js';
import { validateRows, type ValidatedBatch } from './ingest/validate.js';
import { DEFAULT_SETTINGS, type EngineSettings, type MethodContext } from './methods/context.js';
import { METHOD_TABLE } from './methods/index.js';
import type { MethodCall, MethodSubscribe } from './methods/types.js';
import type { FeeStatsKernels } from './kernels/client.js';
import { DECODER_LINGER_MS, KERNELS_LINGER_MS, LARGE_WINDOW_SAMPLES, OnDemandWorker, onDemandDecoder } from './kernels/on-demand.js';
import type { Platform } from './platform/platform.js';
import { MarketEngine } from './market/engine.js';
import { PriorityFeeEngine } from './priorityfee/engine.js';
import { LOCAL_FEE_METHODS } from './priorityfee/local-fees.js';
import { call, dispatchText, type DispatchTarget, type ExtraHandler, type ResponseEntry } from './rpc/dispatch.js';
import { RpcError, toErrorObject } from './rpc/errors.js';
import type { WireRecord } from './schema/encode.js';
import { parseTimeParam } from './schema/time.js';
import type { TableName } from './schema/tables.js';
import { retainNanos, Retention } from './store/retention.js';
import { openStore, type Store } from './store/store.js';
import { NO_PUSH_METHODS, StreamConnection } from './stream/connection.js';
import { SubscriptionHub } from './stream/hub.js';
import { LocalStreams } from './stream/local.js';
import { DEFAULT_REPLAY_RETAIN, startReplay, type Replay, type ReplayOptions } from './stream/replay.js';
import { unitsFromLoader, unitsFromRows, type ReplaySource } from './stream/replay-source.js';
import type { StreamLimits } from './stream/subscription.js';
import type { StreamDemand } from './stream/updates.js';
import type { PushHandler } from './transport/client.js';
import type { PortLike } from './transport/endpoint.js';
import { servePort, type PortServer, type PortSession } from './transport/port-server.js';

/** Options of `createEngine`. */
export interface EngineOptions extends Partial<EngineSettings> {
  /** Bounds of each subscription's queue of unread pushes (docs/semantics.md, Streams). */
  streams?: Partial<StreamLimits>;
  /**
   * History kept behind the newest block (transactions, trades, the market's pair blocks and
   * candles): seconds, or "15m", "2h", "1d"; at least 5 minutes. Default: everything (as-of queries
   * reach the first block; memory grows with the data). Older history is dropped as blocks arrive;
   * live answers do not change but for their lists ending at the cut, and the queries that would
   * need dropped history are refused (docs/semantics.md, Retention).
   */
  retain?: number | string;
}

/** Options of `engine.serve` and `engine.session`. */
export interface ServeOptions {
  /** Extra methods answered on this connection only (a worker entry gives its owner admin methods this way). */
  methods?: Readonly<Record<string, ExtraHandler>>;
}

/**
 * How a session hands a push (JSON text) to its transport; returns how it stays pending until the
 * subscriber has it (PushSink.deliver: bytes to be acknowledged with chain::ack, or a promise).
 */
export type SessionSend = (text: string) => number | PromiseLike<unknown> | undefined | void;

/** What `engine.replay` reads: a dump (like `load`), or `ingest` inputs in slot order (an array or an iterable). */
export type ReplayInput = LoadSource | Iterable<IngestInput> | AsyncIterable<IngestInput>;

/** Rows for `engine.ingest`: per canonical table, plain objects or an Arrow Table. */
export type IngestInput = Partial<Record<TableName, readonly object[] | Table>>;

/** An in-process chainlens engine. */
export interface Engine {
  /** Answers a JSON-RPC body (parsed object or JSON text) with the response array. */
  request(body: unknown): Promise<ResponseEntry[]>;
  /**
   * Calls one method; resolves with the result array (the wire records a JSON-RPC response carries:
   * numbers as decimal strings), rejects with an RpcError carrying the error object.
   */
  call: MethodCall;
  /**
   * Ingests rows of one or more blocks (live push). Every block is committed entirely or not at
   * all, in slot order, and calls are committed in call order; bad rows are rejected and
   * reported, valid rows kept. The rows are read until the promise settles: do not change them before.
   */
  ingest(rows: IngestInput): Promise<IngestReport>;
  /** Loads a dump: folder or files (Node), File/Blob/bytes (browser); any supported format. */
  load(source: LoadSource, options?: LoadOptions): Promise<IngestReport>;
  /**
   * Serves the JSON-RPC envelope on a MessagePort (or worker port), streams included
   * (chain::subscribe, chain::unsubscribe, chain::ack); returns a handle to stop.
   */
  serve(port: PortLike, options?: ServeOptions): PortServer;
  /**
   * One connection of a transport of your own (the HTTP server's WebSockets use it): answers bodies
   * as `serve` does, with the connection's own subscriptions, whose pushes go to `send`. Call
   * `replied(response)` once a reply has been sent (its subscriptions' pushes start then), and
   * `close()` when the connection ends.
   */
  session(send: SessionSend, options?: ServeOptions): PortSession;
  /**
   * Subscribes to a method's stream: after each committed block that changes the method's answer,
   * `onPush` gets the new or updated data points (wire records, as a query answers them). Runs the
   * same chain::subscribe as a port; rejects with an RpcError for an unknown method or bad params.
   */
  subscribe: MethodSubscribe;
  /**
   * Replays a dump (or rows in memory) block by block through the ingest path on a simulated clock,
   * pushing to the streams as live ingestion does. Await the handle for the report.
   */
  replay(source: ReplayInput, options?: ReplayOptions): Replay;
  /** Stops every server, replay and subscription, closes the store and terminates the kernel worker. */
  close(): Promise<void>;
}

const SOURCE_KINDS = (x: unknown) =>
  typeof x === 'string' || x instanceof URL || x instanceof Uint8Array || (typeof Blob !== 'undefined' && x instanceof Blob) ||
  (typeof x === 'object' && x !== null && typeof (x as { name?: unknown }).name === 'string' && (x as { bytes?: unknown }).bytes instanceof Uint8Array);

/** The iterable of ingest inputs in a replay source, or undefined when it is a dump (LoadSource). */
function isRowsSource(source: ReplayInput): Iterable<IngestInput> | AsyncIterable<IngestInput> | undefined {
  if (SOURCE_KINDS(source)) return undefined;
  if (Array.isArray(source)) return source.length > 0 && source.every((x) => !SOURCE_KINDS(x) && !Array.isArray(x)) ? (source as IngestInput[]) : undefined;
  if (typeof (source as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' || typeof (source as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return source as Iterable<IngestInput>;
  }
  return undefined;
}

/** Creates an engine on a platform. The store opens with the first ingest or load. */
export async function createEngineOn(platform: Platform, options: EngineOptions = {}): Promise<Engine> {
  const { streams: streamLimits, retain, ...rest } = options;
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, ...rest };
  let store: Store | undefined;
  let opening: Promise<IngestPipeline> | undefined;
  // the kernel worker (the fee windows' statistics) starts with the first data that needs it, not
  // with the engine; the decoder's (Parquet) runs while files are read and ends a moment after
  const kernelWorker = new OnDemandWorker(() => platform.startKernels());
  const kernels = () => kernelWorker.get();
  const feeKernels: FeeStatsKernels = {
    sampleStats: (samples) => kernelWorker.use(
      (client) => client.sampleStats(samples),
      samples.price.length >= LARGE_WINDOW_SAMPLES ? KERNELS_LINGER_MS : undefined,
    ),
  };
  const decoderWorker = new OnDemandWorker(() => platform.startKernels(), DECODER_LINGER_MS);
  const decoder = onDemandDecoder(decoderWorker);
  // the hub is made below, with the context it needs; the engines ask it through this
  const demand: StreamDemand = { has: (method) => hub.has(method), windows: (method) => hub.windows(method) };
  // runs a task in the pipeline's queue; before the first ingest nothing can commit: the task runs at once
  const betweenCommits = async <T>(task: () => Promise<T> | T): Promise<T> => (opening ? (await opening).exclusive(task) : task());
  const priorityFees = new PriorityFeeEngine(settings, feeKernels, () => store, betweenCommits, demand);
  const market = new MarketEngine(settings, demand);
  // history computed when asked is completed before retention prunes what it is computed from; the
  // market drops its own history with the store's
  const retention = new Retention(retainNanos(retain), () => store, [priorityFees.recommendations, priorityFees.feeWindows, market]);
  const context: MethodContext = {
    options: settings,
    priorityFees,
    market,
    get store() {
      return store;
    },
  };
  const servers = new Set<PortServer>();
  const replays = new Set<Replay>();
  let closed = false;
  let ingestCalls = 0;

  const ensureOpen = () => {
    if (closed) throw new Error('engine is closed');
  };
  const pipeline = () =>
    (opening ??= (async () => {
      // the database starts in its own thread when first needed (store.ts): answers from memory never wait for it
      store = openStore(() => platform.openSql());
      const observers = [retention, ...priorityFees.observers, ...market.observers];
      // the transactions' per-block forms are made in the kernel worker, a chunk ahead of its commit
      return new IngestPipeline(store, observers, hub, (numbers) => kernelWorker.use((client) => client.transactionForms(numbers)));
    })());
  const hub = new SubscriptionHub({
    methods: METHOD_TABLE,
    context,
    limits: streamLimits,
    admit: (method, params) => market.admit(method, params),
    betweenCommits,
  });
  // engine.request has no way to push: its stream methods say so
  const target: DispatchTarget = { methods: METHOD_TABLE, context, extra: NO_PUSH_METHODS };
  const local = new LocalStreams(hub, { methods: METHOD_TABLE, context });

  /** `ingest` rows as validated batches, `source` naming them in rejections. */
  async function validateInput(rows: IngestInput, source: string): Promise<ValidatedBatch[]> {
    const batches: ValidatedBatch[] = [];
    for (const [table, data] of Object.entries(rows) as [TableName, readonly object[] | Table][]) {
      if (data === undefined) continue;
      if (data instanceof Table) {
        const context = { source: `${source} ${table}`, table, batchRows: Number.MAX_SAFE_INTEGER };
        for await (const batch of validateRecordBatches(data.schema, data.batches, context)) batches.push(batch);
      }
      else if (Array.isArray(data)) batches.push(await validateRows(table, data as Record<string, unknown>[], `${source} ${table}`));
      else throw new TypeError(`ingest: ${table} must be an array of rows or an Arrow Table`);
    }
    return batches;
  }

  /**
   * A streamed top list answers every block's best fee payers as the block commits: then their
   * signatures are decoded with the other text, not read back from the file block by block while
   * the load waits (the 10-minute replay streaming only top_txs 0.83x wall).
   */
  const signaturesInFile = () => !demand.has('chain::priorityfee::top_txs');

  function replaySource(source: ReplayInput, strict?: boolean): ReplaySource {
    const rows = isRowsSource(source);
    if (rows) return unitsFromRows(rows, (item) => validateInput(item, `replay#${++ingestCalls}`));
    // a local fee market streamed reads every block's accounts as it comes: then they are read at
    // once, else left in the file as a load leaves them (read back when first asked), which spares
    // the decoder handing them over and this thread interning every transaction's keys (the hour's
    // replay 0.90x wall, its peak 165 MiB lower)
    const accountsInFile = !LOCAL_FEE_METHODS.some((method) => demand.has(method));
    return unitsFromLoader(async (sink) =>
      loadInputs(await expandSource(source as LoadSource, platform.expandPath), sink, { strict, accountsInFile, signaturesInFile: signaturesInFile() }, decoder));
  }

  /** One connection's dispatch and subscriptions, its pushes sent as JSON text (ports, WebSockets). */
  function session(send: SessionSend, serveOptions: ServeOptions): PortSession {
    const connection = new StreamConnection(hub, { deliver: (push) => send(JSON.stringify(push)) });
    const extra = new Map([...connection.methods, ...Object.entries(serveOptions.methods ?? {})]);
    const sessionTarget: DispatchTarget = { methods: METHOD_TABLE, context, extra };
    return {
      handle: (body) => dispatchText(body, sessionTarget),
      replied: (response) => connection.replied(response),
      close: () => connection.close(),
    };
  }

  return {
    request(body) {
      ensureOpen();
      return dispatchText(body, target);
    },
    call: (async (method: string, params: Record<string, unknown> = {}) => {
      ensureOpen();
      try {
        return (await call(method, params, target)) as WireRecord[];
      } catch (error) {
        throw error instanceof RpcError ? error : new RpcError(toErrorObject(error));
      }
    }) as MethodCall,
    async ingest(rows) {
      ensureOpen();
      // validated while earlier calls commit; the commits keep the calls' order
      const batches = validateInput(rows, `ingest#${++ingestCalls}`);
      batches.catch(() => undefined); // rejected through the commit below
      return (await pipeline()).commit(batches);
    },
    async load(source, options) {
      ensureOpen();
      const inputs = await expandSource(source, platform.expandPath);
      kernels().catch(() => undefined); // started beside the decoder: a failure shows at its first use
      const sink = await pipeline();
      // the load holds the decoder's worker across the gaps between its files, and ends it when done
      return decoderWorker.use(() => loadInputs(inputs, sink, { signaturesInFile: signaturesInFile(), ...options }, decoder), 0);
    },
    serve(port, serveOptions = {}) {
      ensureOpen();
      const server = servePort(port, (post) =>
        session((text) => {
          post(text);
          return text.length;
        }, serveOptions));
      servers.add(server);
      return {
        close() {
          server.close();
          servers.delete(server);
        },
      };
    },
    session(send, serveOptions = {}) {
      ensureOpen();
      return session(send, serveOptions);
    },
    subscribe: ((method: string, params: Record<string, unknown>, onPush: PushHandler) => {
      ensureOpen();
      return local.subscribe(method, params, onPush);
    }) as MethodSubscribe,
    replay(source, replayOptions = {}) {
      ensureOpen();
      const time = (name: string, value: unknown) => {
        if (value === undefined) return undefined;
        const ns = typeof value === 'bigint' ? value : parseTimeParam(value);
        if (ns === undefined) throw new RangeError(`replay: ${name} must be Unix seconds, ISO-8601 or ns (bigint), got ${String(value)}`);
        return ns;
      };
      // a replay feeds streams, which need the live windows, not the whole dump: it bounds the history it leaves behind
      const release = retention.hold(retainNanos(replayOptions.retain ?? DEFAULT_REPLAY_RETAIN));
      const options = {
        speed: replayOptions.speed ?? 1, from: time('from', replayOptions.from), to: time('to', replayOptions.to),
        ready: Promise.all([pipeline(), kernels()]), // the clock starts once the engine is warm
      };
      const { units, finish } = replaySource(source, replayOptions.strict);
      const replay = startReplay(units, (batches) => {
        const started = pipeline().then((ingest) => ({ ingest, chunk: ingest.start(batches) }));
        started.catch(() => undefined); // thrown by the commit
        return async () => {
          const { ingest, chunk } = await started;
          return ingest.commit(chunk);
        };
      }, options, finish);
      replays.add(replay);
      replay.done.finally(() => (replays.delete(replay), release())).catch(() => undefined);
      return replay;
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const replay of replays) replay.stop();
      await Promise.all([...replays].map((r) => r.done.catch(() => undefined)));
      for (const server of servers) server.close();
      servers.clear();
      local.close();
      hub.closeAll();
      if (opening) {
        await opening.catch(() => undefined);
        await store?.close();
      }
      await Promise.all([kernelWorker.close(), decoderWorker.close()]);
    },
  };
}
