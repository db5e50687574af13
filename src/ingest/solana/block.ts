/** One getBlock result (`transactionDetails: full`) to its canonical rows. */
import type { BlockRow, TradeRow, TransactionRow } from '../../schema/tables.js';
import { describe, FieldError, isObject, toU64 } from './field-error.js';
import type { DecodeIssue } from './issues.js';
import type { DecodeSettings } from './options.js';
import { decodeEntry } from './transaction.js';
import { entrySignature, type KeyEncoder } from './transaction-view.js';

/** Counts per block that the rows do not carry. */
export interface BlockStats {
  readonly slot: bigint;
  readonly transactions: number;
  readonly votes: number;
  /** Transactions rejected as undecodable (they have no row). */
  readonly rejectedTransactions: number;
  /** Transactions whose compute budget instructions the runtime refuses (duplicate or malformed). */
  readonly computeBudgetAnomalies: number;
}

/** The rows of one block, with the decimals of every mint its token balances mention. */
export interface DecodedBlock {
  readonly block: BlockRow;
  readonly transactions: TransactionRow[];
  readonly trades: TradeRow[];
  readonly mintDecimals: Map<string, number>;
  readonly stats: BlockStats;
  readonly rejections: DecodeIssue[];
  readonly warnings: DecodeIssue[];
}

/** Where a block came from: file, row, and the slot if the wrapper or the file name gave one. */
export interface BlockOrigin {
  readonly source: string;
  readonly row: number;
  readonly slot: bigint | null;
}

const NS_PER_SECOND = 1_000_000_000n;

/**
 * Decodes one block. Throws FieldError when the block itself is unusable (no transactions list, no
 * blockTime...); a transaction that cannot be decoded is rejected alone and counted.
 */
export function decodeBlock(raw: unknown, origin: BlockOrigin, settings: DecodeSettings, keys: KeyEncoder): DecodedBlock {
  if (!isObject(raw)) throw new FieldError('', `expected a getBlock result object, got ${describe(raw)}`);
  if (!Array.isArray(raw.transactions)) {
    const hint = 'transaction' in raw && 'meta' in raw ? ' (this is a getTransaction result, not a block)' : '';
    const signaturesOnly = Array.isArray(raw.signatures) ? ' (transactionDetails must be "full", not "signatures")' : '';
    throw new FieldError('transactions', `expected the block's transaction list${hint}${signaturesOnly}, got ${describe(raw.transactions)}`);
  }
  if (raw.blockTime === null || raw.blockTime === undefined) throw new FieldError('blockTime', 'block has no blockTime');
  const blockTime = toU64(raw.blockTime, 'blockTime');
  const parentSlot = toU64(raw.parentSlot, 'parentSlot');
  const blockHeight = raw.blockHeight === null || raw.blockHeight === undefined ? null : toU64(raw.blockHeight, 'blockHeight');

  const warnings: DecodeIssue[] = [];
  const warn = (field: string, message: string) => warnings.push({ source: origin.source, row: origin.row, field, message });
  let slot = origin.slot;
  if (slot === null) {
    slot = parentSlot + 1n;
    warn('', `slot not recorded (no {slot, block} wrapper, no slot in the file name): assumed parent_slot + 1 = ${slot}`);
  }
  const timestamp = blockTime * NS_PER_SECOND;
  const block: BlockRow = {
    slot,
    timestamp,
    parent_slot: parentSlot,
    block_height: blockHeight,
    leader: feeRewardPubkey(raw.rewards),
    block_cu_limit: null,
  };

  const transactions: TransactionRow[] = [];
  const trades: TradeRow[] = [];
  const mintDecimals = new Map<string, number>();
  const rejections: DecodeIssue[] = [];
  let votes = 0;
  let anomalies = 0;
  let missingComputeUnits = 0;
  raw.transactions.forEach((entry, index) => {
    try {
      const decoded = decodeEntry(entry, { slot, index, timestamp }, settings, keys, `transactions[${index}]`);
      transactions.push(decoded.transaction);
      if (decoded.trade) trades.push(decoded.trade);
      if (decoded.transaction.is_vote) votes++;
      if (decoded.anomaly) anomalies++;
      if (decoded.missingComputeUnits) missingComputeUnits++;
      for (const b of decoded.tokenBalances) if (!mintDecimals.has(b.mint)) mintDecimals.set(b.mint, b.decimals);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      const signature = entrySignature(entry);
      rejections.push({
        source: origin.source,
        row: origin.row,
        field: error.field,
        message: `slot ${slot}, transaction ${index}${signature ? ` (signature ${signature})` : ''}: ${error.message}`,
      });
    }
  });
  if (missingComputeUnits > 0) {
    warn('transactions', `${missingComputeUnits} transactions have no meta.computeUnitsConsumed: their consumed compute units are unknown (null)`);
  }
  return {
    block,
    transactions,
    trades,
    mintDecimals,
    stats: { slot, transactions: raw.transactions.length, votes, rejectedTransactions: rejections.length, computeBudgetAnomalies: anomalies },
    rejections,
    warnings,
  };
}

/** The leader is the validator credited with the block's `Fee` reward. */
function feeRewardPubkey(rewards: unknown): string | null {
  if (!Array.isArray(rewards)) return null;
  for (const r of rewards) {
    if (isObject(r) && r.rewardType === 'Fee' && typeof r.pubkey === 'string') return r.pubkey;
  }
  return null;
}
