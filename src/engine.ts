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
import type { KernelClient } from './kernels/client.js';
import type { Platform } from './platform/platform.js';
import { MarketEngine } from './market/engine.js';
import { PriorityFeeEngine } from './priorityfee/engine.js';
import { call, dispatchText, type DispatchTarget, type ResponseEntry } from './rpc/dispatch.js';
import { RpcError, toErrorObject } from './rpc/errors.js';
import type { TableName } from './schema/tables.js';
import { openStore, type Store } from './store/store.js';
import type { PortLike } from './transport/endpoint.js';
import { servePort, type PortServer } from './transport/port-server.js';

/** Options of `createEngine`. */
export interface EngineOptions extends Partial<EngineSettings> {}

/** Rows for `engine.ingest`: per canonical table, plain objects or an Arrow Table. */
export type IngestInput = Partial<Record<TableName, readonly object[] | Table>>;

/** An in-process chainlens engine. */
export interface Engine {
  /** Answers a JSON-RPC body (parsed object or JSON text) with the response array. */
  request(body: unknown): Promise<ResponseEntry[]>;
  /** Calls one method; resolves with the result array, rejects with an RpcError carrying the error object. */
  call(method: string, params?: Record<string, unknown>): Promise<unknown[]>;
  /**
   * Ingests rows of one or more blocks (live push). Every block is committed entirely or not at
   * all, in slot order; bad rows are rejected and reported, valid rows kept.
   */
  ingest(rows: IngestInput): Promise<IngestReport>;
  /** Loads a dump: folder or files (Node), File/Blob/bytes (browser); any supported format. */
  load(source: LoadSource, options?: LoadOptions): Promise<IngestReport>;
  /** Serves the JSON-RPC envelope on a MessagePort (or worker port); returns a handle to stop. */
  serve(port: PortLike): PortServer;
  /** Stops every server, closes the store and terminates the kernel worker. */
  close(): Promise<void>;
}

/** Creates an engine on a platform. The store opens with the first ingest or load. */
export async function createEngineOn(platform: Platform, options: EngineOptions = {}): Promise<Engine> {
  const settings: EngineSettings = { ...DEFAULT_SETTINGS, ...options };
  let store: Store | undefined;
  let opening: Promise<IngestPipeline> | undefined;
  let kernelWorker: Promise<KernelClient> | undefined;
  // the kernel worker starts with the first data that needs it, not with the engine
  const kernels = () => (kernelWorker ??= platform.startKernels());
  const priorityFees = new PriorityFeeEngine(settings, kernels);
  const market = new MarketEngine(settings, kernels);
  const context: MethodContext = {
    options: settings,
    priorityFees,
    market,
    get store() {
      return store;
    },
  };
  const target: DispatchTarget = { methods: METHOD_TABLE, context };
  const servers = new Set<PortServer>();
  let closed = false;
  let ingestCalls = 0;

  const ensureOpen = () => {
    if (closed) throw new Error('engine is closed');
  };
  const pipeline = () =>
    (opening ??= (async () => {
      store = await openStore(await platform.openSql());
      return new IngestPipeline(store, [...priorityFees.observers, ...market.observers]);
    })());

  return {
    request(body) {
      ensureOpen();
      return dispatchText(body, target);
    },
    async call(method, params = {}) {
      ensureOpen();
      try {
        return (await call(method, params, target)) as unknown[];
      } catch (error) {
        throw error instanceof RpcError ? error : new RpcError(toErrorObject(error));
      }
    },
    async ingest(rows) {
      ensureOpen();
      const source = `ingest#${++ingestCalls}`;
      const batches: ValidatedBatch[] = [];
      for (const [table, data] of Object.entries(rows) as [TableName, readonly object[] | Table][]) {
        if (data === undefined) continue;
        if (data instanceof Table) {
          const context = { source: `${source} ${table}`, table, batchRows: Number.MAX_SAFE_INTEGER };
          for await (const batch of validateRecordBatches(data.schema, data.batches, context)) batches.push(batch);
        }
        else if (Array.isArray(data)) batches.push(validateRows(table, data as Record<string, unknown>[], `${source} ${table}`));
        else throw new TypeError(`ingest: ${table} must be an array of rows or an Arrow Table`);
      }
      return (await pipeline()).commit(batches);
    },
    async load(source, options) {
      ensureOpen();
      const inputs = await expandSource(source, platform.expandPath);
      return loadInputs(inputs, await pipeline(), options);
    },
    serve(port) {
      ensureOpen();
      const server = servePort(port, (body) => dispatchText(body, target));
      servers.add(server);
      return {
        close() {
          server.close();
          servers.delete(server);
        },
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const server of servers) server.close();
      servers.clear();
      if (opening) {
        await opening.catch(() => undefined);
        await store?.close();
      }
      if (kernelWorker) await (await kernelWorker.catch(() => undefined))?.close();
    },
  };
}
