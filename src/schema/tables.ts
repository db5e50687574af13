/**
 * The canonical input tables (DESIGN.md 3), defined once as ordered column lists. Ingest adapters
 * normalise every input into record batches of these columns; the store's DDL and the Arrow schema
 * are derived from them.
 *
 * Column kinds: u64/u32/u8 unsigned integers (u64 kept exact as bigint), `ns` int64 nanoseconds since
 * the Unix epoch, utf8 strings, bool, `keys` a list of base58 public keys. `optional` columns may be
 * absent from a file and hold nulls;
 * `nullable` columns must be present but a value may be null (unknown to the source).
 */
export type ColumnKind = 'u64' | 'u32' | 'u8' | 'ns' | 'utf8' | 'bool' | 'mint' | 'keys';

/**
 * One column of a canonical table. `mint` is a utf8 base58 public key, validated at ingest; `keys` a
 * list of them (at most MAX_TRANSACTION_KEYS).
 */
export interface Column {
  readonly name: string;
  readonly kind: ColumnKind;
  /** The column may be absent (then all null). */
  readonly optional?: boolean;
  /** The column is required, but a value may be null: the source does not know it. */
  readonly nullable?: boolean;
}

/** Whether a column's values may be null (an optional or a nullable column). */
export const holdsNulls = (column: Column): boolean => column.optional === true || column.nullable === true;

/** A canonical table: name and ordered columns. */
export interface TableSchema {
  readonly name: TableName;
  readonly columns: readonly Column[];
}

export type TableName = 'blocks' | 'transactions' | 'trades' | 'tokens';

const col = (name: string, kind: ColumnKind, optional = false): Column => ({ name, kind, optional });

export const BLOCKS: TableSchema = {
  name: 'blocks',
  columns: [
    col('slot', 'u64'), col('timestamp', 'ns'), col('parent_slot', 'u64', true), col('block_height', 'u64', true),
    col('leader', 'mint', true), col('block_cu_limit', 'u64', true),
  ],
};

export const TRANSACTIONS: TableSchema = {
  name: 'transactions',
  columns: [
    col('slot', 'u64'), col('index', 'u32'), col('signature', 'utf8'), col('signer', 'mint'), col('program', 'mint'),
    col('is_vote', 'bool'), col('failed', 'bool'), col('compute_unit_price', 'u64'), col('compute_unit_limit', 'u32'),
    // null where the source does not know it (getBlock from RPC nodes before v1.10)
    { name: 'compute_units_consumed', kind: 'u64', nullable: true }, col('priority_fee', 'u64', true),
    // the accounts the transaction write-locks at run time, and the others it loads (docs/semantics.md,
    // Local fee markets); null where the source does not give them
    col('writable_accounts', 'keys', true), col('readonly_accounts', 'keys', true),
  ],
};

export const TRADES: TableSchema = {
  name: 'trades',
  columns: [
    col('signature', 'utf8'), col('signer', 'mint'), col('slot', 'u64'), col('tx_index', 'u32'), col('fill_index', 'u32'),
    col('timestamp', 'ns'), col('base', 'mint'), col('quote', 'mint'), col('base_amount', 'u64'), col('quote_amount', 'u64'),
    col('base_decimals', 'u8'), col('quote_decimals', 'u8'), col('is_buy', 'bool'),
  ],
};

export const TOKENS: TableSchema = {
  name: 'tokens',
  columns: [col('mint', 'mint'), col('name', 'utf8'), col('symbol', 'utf8'), col('decimals', 'u8'), col('supply', 'u64', true)],
};

/** The four canonical tables. */
export const TABLES: Record<TableName, TableSchema> = {
  blocks: BLOCKS,
  transactions: TRANSACTIONS,
  trades: TRADES,
  tokens: TOKENS,
};

/** A transaction loads at most 256 accounts (instructions index them with a u8). */
export const MAX_TRANSACTION_KEYS = 256;

/** The JS value a column kind holds in a plain-object row (u64 and ns are bigint, exact). */
export type ColumnValue<K extends ColumnKind> = K extends 'u64' | 'ns'
  ? bigint
  : K extends 'u32' | 'u8'
    ? number
    : K extends 'bool'
      ? boolean
      : K extends 'keys'
        ? string[]
        : string;

/** Plain-object rows of each canonical table. */
export interface BlockRow {
  slot: bigint;
  timestamp: bigint;
  parent_slot?: bigint | null;
  block_height?: bigint | null;
  leader?: string | null;
  block_cu_limit?: bigint | null;
}
export interface TransactionRow {
  slot: bigint;
  index: number;
  signature: string;
  signer: string;
  program: string;
  is_vote: boolean;
  failed: boolean;
  compute_unit_price: bigint;
  compute_unit_limit: number;
  /** null when the source does not know it. */
  compute_units_consumed: bigint | null;
  priority_fee?: bigint | null;
  /** Accounts write-locked at run time (demoted programs and reserved keys are not); null when unknown. */
  writable_accounts?: string[] | null;
  /** The transaction's other accounts; null when unknown. */
  readonly_accounts?: string[] | null;
}
export interface TradeRow {
  signature: string;
  signer: string;
  slot: bigint;
  tx_index: number;
  fill_index: number;
  timestamp: bigint;
  base: string;
  quote: string;
  base_amount: bigint;
  quote_amount: bigint;
  base_decimals: number;
  quote_decimals: number;
  is_buy: boolean;
}
export interface TokenRow {
  mint: string;
  name: string;
  symbol: string;
  decimals: number;
  supply?: bigint | null;
}

/** Rows of all four tables, as `engine.ingest` takes them. */
export interface CanonicalRows {
  blocks?: BlockRow[];
  transactions?: TransactionRow[];
  trades?: TradeRow[];
  tokens?: TokenRow[];
}
