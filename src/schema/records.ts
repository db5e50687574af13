/**
 * Every record of the seed (sections 2.1 to 2.12) and of chainlens' own methods, defined once as an ordered field list with
 * its wire type. TypeScript types, the JSON encoder, the store's tables and the docs are derived
 * from these lists; a field name is written here and nowhere else.
 */
import type { ValueOf, WireType, WireValueOf } from './wire.js';

/** One field: its wire name and wire type. */
export type Field = readonly [name: string, type: WireType];

/** A record kind: its name and ordered fields. */
export interface RecordSchema<F extends readonly Field[] = readonly Field[]> {
  readonly name: string;
  readonly fields: F;
}

/**
 * The in-memory values of a record whose schema is `S`, before encoding (bigint nanoseconds,
 * numbers): engine internals, not what a call returns (that is `WireOf<S>`).
 */
export type RecordOf<S extends RecordSchema> = {
  [K in S['fields'][number] as K[0]]: ValueOf<K[1]>;
};

/**
 * Numeric fields that are never null on the wire, in every record that has them: slots, counts,
 * raw amounts and the sums of known values. Every other numeric field may be null (a statistic of
 * no samples, a ratio over zero, an unknown USD price, supply or consumed compute units). The
 * encoder refuses a null here, so the type `WireOf` gives them is a checked contract.
 */
export const NEVER_NULL_FIELDS = [
  'slot', 'tx_count', 'no_priority_tx_count', 'total_tx_count', 'data_points',
  'total_swaps', 'buy_swaps', 'sell_swaps', 'num_swaps', 'outlier_count',
  'decimals', 'base_decimals', 'quote_decimals', 'base_amount', 'quote_amount',
  'compute_unit_price', 'compute_unit_limit', 'total_priority_fee', 'total_priority_fees', 'total_compute_budget',
  'batches', 'records',
] as const;

/** A field name of NEVER_NULL_FIELDS. */
export type NeverNullField = (typeof NEVER_NULL_FIELDS)[number];

/** A record whose schema is `S` as it arrives on the wire (JSON): what a call answers and a push carries. */
export type WireOf<S extends RecordSchema> = {
  [K in S['fields'][number] as K[0]]: K[0] extends NeverNullField ? NonNullable<WireValueOf<K[1]>> : WireValueOf<K[1]>;
};

function record<const F extends readonly Field[]>(name: string, fields: F): RecordSchema<F> {
  const seen = new Set<string>();
  for (const [field] of fields) {
    if (seen.has(field)) throw new Error(`schema ${name}: duplicate field ${field}`);
    seen.add(field);
  }
  return { name, fields };
}

/** Percentile-style suffixes of every statistic family (seed 2.2), with the percentile in thousandths. */
export const STAT_SUFFIXES = [
  'mean', 'median', 'min', 'max',
  'p5', 'p10', 'p15', 'p20', 'p25', 'p30', 'p35', 'p40', 'p45', 'p50', 'p55', 'p60', 'p65',
  'p70', 'p75', 'p80', 'p85', 'p90', 'p95', 'p96', 'p97', 'p98', 'p99', 'p99_9', 'p99_99', 'p99_999',
] as const;
export type StatSuffix = (typeof STAT_SUFFIXES)[number];

/** The percentile of a pN suffix in thousandths of a percent (p99_9 -> 99900); median is p50. */
export function suffixMillis(suffix: StatSuffix): number | undefined {
  if (suffix === 'median') return 50_000;
  if (suffix === 'min') return 0;
  if (suffix === 'max') return 100_000;
  if (suffix === 'mean') return undefined;
  const [whole, frac = ''] = suffix.slice(1).split('_');
  return Number(whole) * 1000 + Number(frac.padEnd(3, '0'));
}

/** Fee percentiles that have a position_at_fee_pN field. */
export const POSITION_AT_FEE = [25, 50, 65, 70, 75, 85, 90, 95, 99] as const;

/** Recommendation tiers, in order of urgency, with the price percentile each one takes. */
export const TIERS = [
  ['min', 0], ['low', 25], ['medium', 50], ['high', 75], ['very_high', 95], ['max', 100],
] as const;

type Family<P extends string, W extends WireType> = { [K in StatSuffix]: readonly [`${P}_${K}`, W] }[StatSuffix];
type PositionAtFee = readonly [`position_at_fee_p${(typeof POSITION_AT_FEE)[number]}`, 'Float4'];
type Tier = (typeof TIERS)[number][0];
type TierField =
  | readonly [`${Tier}_price`, 'Uint8']
  | readonly [`${Tier}_fee`, 'Uint8']
  | readonly [`${Tier}_cu_limit`, 'Uint4']
  | readonly [`${Tier}_landing_rank_pct`, 'Float4']
  | readonly [`${Tier}_landing_inclusion_pct`, 'Float4'];

function family<P extends string, W extends WireType>(prefix: P, type: W): readonly Family<P, W>[] {
  return STAT_SUFFIXES.map((s) => [`${prefix}_${s}`, type] as const) as unknown as readonly Family<P, W>[];
}
const feeFamilies = [
  ...family('price', 'Uint8'),
  ...family('fee', 'Uint8'),
  ...family('limit', 'Uint8'),
  ...family('position', 'Float4'),
] as const;
const positionAtFee = POSITION_AT_FEE.map((p) => [`position_at_fee_p${p}`, 'Float4'] as const) as unknown as readonly PositionAtFee[];
const tierFields = TIERS.flatMap(([t]) => [
  [`${t}_price`, 'Uint8'],
  [`${t}_fee`, 'Uint8'],
  [`${t}_cu_limit`, 'Uint4'],
  [`${t}_landing_rank_pct`, 'Float4'],
  [`${t}_landing_inclusion_pct`, 'Float4'],
] as const) as unknown as readonly TierField[];

const windowBounds = [['window_start', 'DateTime'], ['window_end', 'DateTime']] as const;

/** 2.1 Token. */
export const Token = record('Token', [
  ['id', 'id'], ['mint', 'Utf8'], ['name', 'Utf8'], ['symbol', 'Utf8'], ['decimals', 'Uint1'], ['supply', 'Uint8'],
] as const);

/** 2.2 Block priority-fee aggregate (chain::priorityfee::block). */
export const BlockFees = record('BlockFees', [
  ['id', 'id'], ['slot', 'Uint8'], ['timestamp', 'DateTime'],
  ['tx_count', 'Uint4'], ['no_priority_tx_count', 'Uint4'], ['total_priority_fees', 'Uint8'],
  ['total_compute_units', 'Uint8'], ['total_tx_count', 'Uint4'], ['total_compute_budget', 'Uint8'],
  ['cu_utilization_pct', 'Float4'], ['std_dev', 'Float8'],
  ['price_spread', 'Uint8'], ['fee_spread', 'Uint8'], ['limit_spread', 'Uint8'], ['position_spread', 'Float4'],
  ...feeFamilies,
  ...positionAtFee,
] as const);

/** 2.3 Windowed priority-fee percentiles (chain::priorityfee::fee). */
export const WindowFees = record('WindowFees', [
  ['id', 'id'], ...windowBounds, ['timestamp', 'DateTime'], ['window_duration', 'Duration'],
  ['tx_count', 'Uint8'], ['no_priority_tx_count', 'Uint8'], ['total_tx_count', 'Uint8'],
  ['total_priority_fees', 'Uint8'], ['data_points', 'Uint8'], ['is_valid', 'Boolean'],
  ...feeFamilies,
  ['position_spread', 'Float4'],
  ...positionAtFee,
] as const);

/** 2.4 Priority-fee recommendation (chain::priorityfee::recommendation). */
export const Recommendation = record('Recommendation', [
  ['id', 'id'], ['timestamp', 'DateTime'], ['window_duration', 'Duration'], ...windowBounds,
  ['tx_count', 'Uint4'], ['no_priority_tx_count', 'Uint4'], ['total_tx_count', 'Uint4'],
  ['data_points', 'Uint4'], ['is_valid', 'Boolean'],
  ...tierFields,
  ['median_block_fill_pct', 'Float4'], ['saturated_block_share_pct', 'Float4'],
  ['fee_volatility', 'Float8'], ['avg_cu_per_tx', 'Float8'],
] as const);

/** 2.5 Top priority-fee transaction (chain::priorityfee::top_txs). */
export const TopTransaction = record('TopTransaction', [
  ['id', 'id'], ['signature', 'Utf8'], ['signer', 'Utf8'], ['program', 'Utf8'], ['slot', 'Uint8'],
  ['timestamp', 'DateTime'], ['compute_unit_price', 'Uint8'], ['compute_unit_limit', 'Uint4'],
  ['compute_units_consumed', 'Uint8'], ['total_priority_fee', 'Uint8'], ['window_duration', 'Duration'],
  ...windowBounds,
] as const);

/** 2.6 Block trade aggregate (chain::market::block). */
export const BlockTrades = record('BlockTrades', [
  ['id', 'id'], ['slot', 'Uint8'], ['timestamp', 'DateTime'], ['base', 'Utf8'], ['quote', 'Utf8'],
  ['vwap', 'Float8'], ['vwap_raw', 'Float8'], ['min', 'Float8'], ['max', 'Float8'],
  ['base_volume', 'Float8'], ['quote_volume', 'Float8'], ['total_volume', 'Float8'],
  ['buy_volume', 'Float8'], ['sell_volume', 'Float8'],
  ['num_swaps', 'Uint4'], ['buy_swaps', 'Uint4'], ['sell_swaps', 'Uint4'],
  ['quote_usd_price', 'Float8'], ['vwap_usd', 'Float8'], ['vwap_usd_raw', 'Float8'],
  ['min_usd', 'Float8'], ['max_usd', 'Float8'], ['volume_usd', 'Float8'],
  ['buy_volume_usd', 'Float8'], ['sell_volume_usd', 'Float8'],
  ['outlier_count', 'Uint4'], ['outlier_volume_pct', 'Float4'],
] as const);

/** 2.7 Candle (chain::market::ohlcv). */
export const Candle = record('Candle', [
  ['id', 'id'], ['base', 'Utf8'], ['quote', 'Utf8'], ['timestamp', 'DateTime'], ['window_duration', 'Duration'],
  ['open', 'Float8'], ['high', 'Float8'], ['low', 'Float8'], ['close', 'Float8'],
  ['base_volume', 'Float8'], ['quote_volume', 'Float8'],
  ['open_usd', 'Float8'], ['high_usd', 'Float8'], ['low_usd', 'Float8'], ['close_usd', 'Float8'],
  ['volume_usd', 'Float8'], ['data_points', 'Uint4'],
  ...windowBounds,
] as const);

/** 2.8 Volume totals (chain::market::volume). */
export const Volume = record('Volume', [
  ['id', 'id'], ['base', 'Utf8'], ['quote', 'Utf8'], ['timestamp', 'DateTime'], ['window_duration', 'Duration'],
  ['base_volume', 'Float8'], ['quote_volume', 'Float8'],
  ['buy_volume', 'Float8'], ['sell_volume', 'Float8'], ['total_volume', 'Float8'],
  ['buy_swaps', 'Uint4'], ['sell_swaps', 'Uint4'], ['total_swaps', 'Uint4'],
  ['buy_sell_ratio', 'Float4'], ['data_points', 'Uint4'], ['duration', 'Duration'],
  ...windowBounds,
  ['buy_volume_usd', 'Float8'], ['sell_volume_usd', 'Float8'], ['total_volume_usd', 'Float8'],
] as const);

/** 2.9 VWAP (chain::market::vwap). */
export const Vwap = record('Vwap', [
  ['id', 'id'], ['base', 'Utf8'], ['quote', 'Utf8'], ['timestamp', 'DateTime'], ['slot', 'Uint8'],
  ['window_duration', 'Duration'], ['vwap', 'Float8'], ['vwap_usd', 'Float8'],
  ['current_price', 'Float8'], ['current_price_usd', 'Float8'],
  ['cumulative_price_volume', 'Float8'], ['cumulative_price_volume_usd', 'Float8'],
  ['total_volume', 'Float8'], ['total_volume_usd', 'Float8'], ['data_points', 'Uint4'],
  ...windowBounds,
] as const);

/** 2.10 TWAP (chain::market::twap). */
export const Twap = record('Twap', [
  ['id', 'id'], ['base', 'Utf8'], ['quote', 'Utf8'], ['timestamp', 'DateTime'], ['slot', 'Uint8'],
  ['window_duration', 'Duration'], ['twap', 'Float8'], ['twap_usd', 'Float8'],
  ['current_price', 'Float8'], ['current_price_usd', 'Float8'],
  ['cumulative_weighted_sum', 'Float8'], ['cumulative_weighted_sum_usd', 'Float8'],
  ['total_duration', 'Duration'], ['data_points', 'Uint4'],
  ...windowBounds,
] as const);

/** 2.11 Trade (chain::market::trades): one record per fill. */
export const Trade = record('Trade', [
  ['id', 'id'], ['signature', 'Utf8'], ['signer', 'Utf8'], ['slot', 'Uint8'], ['timestamp', 'DateTime'],
  ['base', 'Utf8'], ['quote', 'Utf8'], ['base_amount', 'Uint8'], ['quote_amount', 'Uint8'],
  ['base_decimals', 'Uint1'], ['quote_decimals', 'Uint1'],
  ['base_volume', 'Float8'], ['quote_volume', 'Float8'], ['price', 'Float8'], ['is_buy', 'Boolean'],
] as const);

/** 2.12 Ingestion timing (chain::market::ingestion): one row per block. */
export const Ingestion = record('Ingestion', [
  ['id', 'id'], ['slot', 'Uint8'], ['timestamp', 'DateTime'], ['started_at', 'DateTime'],
  ['took', 'Duration'], ['batches', 'Int8'], ['records', 'Uint4'],
] as const);

/**
 * Local fee markets (chainlens methods beyond the seed, docs/semantics.md): the tiers of one scope
 * (chain::priorityfee::estimate). `scope` is an account's base58 key, "combined" (the transactions
 * locking any of the accounts) or "global" (every transaction of the lookback).
 */
export const PriorityFeeEstimate = record('PriorityFeeEstimate', [
  ['id', 'id'], ['scope', 'Utf8'], ['slot', 'Uint8'], ['timestamp', 'DateTime'], ['first_slot', 'Uint8'],
  ['lookback_slots', 'Uint4'], ['tx_count', 'Uint4'], ['no_priority_tx_count', 'Uint4'], ['is_valid', 'Boolean'],
  ...TIERS.map(([t]) => [`${t}_price`, 'Uint8'] as const) as unknown as readonly (readonly [`${Tier}_price`, 'Uint8'])[],
  ['recommended_price', 'Uint8'],
] as const);

/** A block's fee as Solana's getRecentPrioritizationFees reports it (chain::priorityfee::recent). */
export const PrioritizationFee = record('PrioritizationFee', [
  ['id', 'id'], ['slot', 'Uint8'], ['timestamp', 'DateTime'], ['prioritization_fee', 'Uint8'],
] as const);

/** All twelve records of the seed, in seed order. */
export const RECORDS = [
  Token, BlockFees, WindowFees, Recommendation, TopTransaction, BlockTrades,
  Candle, Volume, Vwap, Twap, Trade, Ingestion,
] as const;

/** The records of chainlens' own methods, beyond the seed. */
export const EXTENSION_RECORDS = [PriorityFeeEstimate, PrioritizationFee] as const;

/*
 * Each record as it arrives on the wire, under the record's name (a type beside the schema constant
 * of the same name): `import type { Candle } from 'chainlens'`.
 */
/** The Token record on the wire. */
export type Token = WireOf<typeof Token>;
/** The BlockFees record on the wire. */
export type BlockFees = WireOf<typeof BlockFees>;
/** The WindowFees record on the wire. */
export type WindowFees = WireOf<typeof WindowFees>;
/** The Recommendation record on the wire. */
export type Recommendation = WireOf<typeof Recommendation>;
/** The TopTransaction record on the wire. */
export type TopTransaction = WireOf<typeof TopTransaction>;
/** The BlockTrades record on the wire. */
export type BlockTrades = WireOf<typeof BlockTrades>;
/** The Candle record on the wire. */
export type Candle = WireOf<typeof Candle>;
/** The Volume record on the wire. */
export type Volume = WireOf<typeof Volume>;
/** The Vwap record on the wire. */
export type Vwap = WireOf<typeof Vwap>;
/** The Twap record on the wire. */
export type Twap = WireOf<typeof Twap>;
/** The Trade record on the wire. */
export type Trade = WireOf<typeof Trade>;
/** The Ingestion record on the wire. */
export type Ingestion = WireOf<typeof Ingestion>;
/** The PriorityFeeEstimate record on the wire. */
export type PriorityFeeEstimate = WireOf<typeof PriorityFeeEstimate>;
/** The PrioritizationFee record on the wire. */
export type PrioritizationFee = WireOf<typeof PrioritizationFee>;

/*
 * In-memory values of each record before encoding (bigint times, numbers): the engines' internals,
 * not exported by the package. A call answers the wire records above.
 */
export type TokenRecord = RecordOf<typeof Token>;
export type BlockFeesRecord = RecordOf<typeof BlockFees>;
export type WindowFeesRecord = RecordOf<typeof WindowFees>;
export type RecommendationRecord = RecordOf<typeof Recommendation>;
export type TopTransactionRecord = RecordOf<typeof TopTransaction>;
export type BlockTradesRecord = RecordOf<typeof BlockTrades>;
export type CandleRecord = RecordOf<typeof Candle>;
export type VolumeRecord = RecordOf<typeof Volume>;
export type VwapRecord = RecordOf<typeof Vwap>;
export type TwapRecord = RecordOf<typeof Twap>;
export type TradeRecord = RecordOf<typeof Trade>;
export type IngestionRecord = RecordOf<typeof Ingestion>;
export type PriorityFeeEstimateRecord = RecordOf<typeof PriorityFeeEstimate>;
export type PrioritizationFeeRecord = RecordOf<typeof PrioritizationFee>;
