/**
 * The record schemas as the package exports them (`import { schema } from 'chainlens'`): each
 * record's field list, and under the same name its type on the wire. The in-memory record types
 * of the engines (RecordOf) stay inside.
 */
export {
  Token, BlockFees, WindowFees, Recommendation, TopTransaction, BlockTrades,
  Candle, Volume, Vwap, Twap, Trade, Ingestion, PriorityFeeEstimate, PrioritizationFee,
  RECORDS, EXTENSION_RECORDS, STAT_SUFFIXES, POSITION_AT_FEE, TIERS,
  type Field, type RecordSchema, type StatSuffix, type WireOf,
} from './records.js';
export { WIRE_DOCS, type WireType, type WireValueOf } from './wire.js';
