/** chainlens: the platform-independent public surface (the entries add `createEngine`). */
export { createEngineOn, type Engine, type EngineOptions, type IngestInput, type ReplayInput, type ServeOptions, type SessionSend } from './engine.js';
export type { PortServer, PortSession } from './transport/port-server.js';
export type { IngestReport } from './ingest/pipeline.js';
export type { LoadOptions, LoadProgress } from './ingest/load.js';
export type { LoadSource } from './ingest/sources.js';
export type { Rejection } from './ingest/validate.js';
export { connect, type Client, type ConnectOptions, type PushHandler, type StreamSubscription } from './transport/client.js';
export type { PushMessage, PushParams } from './stream/push.js';
export type { Replay, ReplayOptions, ReplayReport, ReplayReportJSON } from './stream/replay.js';
export type { StreamLimits } from './stream/subscription.js';
export type { PortLike } from './transport/endpoint.js';
export { ErrorCode, RpcError, type RpcErrorObject } from './rpc/errors.js';
export type { ResponseEntry } from './rpc/dispatch.js';
export { METHODS } from './methods/index.js';
export type { DynamicName, MethodCall, MethodName, MethodSubscribe, ParamsOf, WireRecordOf } from './methods/types.js';
export * as schema from './schema/public.js';
export type {
  Token, BlockFees, WindowFees, Recommendation, TopTransaction, BlockTrades,
  Candle, Volume, Vwap, Twap, Trade, Ingestion, WireOf,
} from './schema/records.js';
export type { WireRecord, WireValue } from './schema/encode.js';
export type { WireValueOf } from './schema/wire.js';
export type { BlockRow, TransactionRow, TradeRow, TokenRow, CanonicalRows } from './schema/tables.js';
