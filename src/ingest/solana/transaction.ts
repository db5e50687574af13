/** One getBlock transaction entry (`{transaction, meta, version}`) to its canonical rows. */
import type { TradeRow, TransactionRow } from '../../schema/tables.js';
import { priorityFeeOf } from '../../schema/amounts.js';
import { decodeComputeBudget, type ComputeBudgetAnomaly } from './compute-budget.js';
import { describe, FieldError, isObject } from './field-error.js';
import { readMeta, type TokenBalance } from './meta.js';
import { defaultLimitRuleAt, type DecodeSettings } from './options.js';
import { COMPUTE_BUDGET_PROGRAM } from './programs.js';
import { deriveTrade } from './trades.js';
import { KeyEncoder, viewTransaction, type TransactionEncoding } from './transaction-view.js';
import { isVoteTransaction } from './votes.js';
import { writeLocks } from './write-locks.js';

/** Where the entry sits: its block's slot and time (ns) and its 0-based position in the block. */
export interface EntryPlace {
  readonly slot: bigint;
  readonly index: number;
  readonly timestamp: bigint;
}

/** The rows of one transaction entry. */
export interface DecodedEntry {
  readonly transaction: TransactionRow;
  readonly trade: TradeRow | null;
  readonly encoding: TransactionEncoding;
  /** Set when the runtime would refuse the compute budget instructions (price then 0). */
  readonly anomaly: ComputeBudgetAnomaly | null;
  /** Every token balance of the entry, for the tokens table. */
  readonly tokenBalances: readonly TokenBalance[];
  /** True when meta had no computeUnitsConsumed (RPC before v1.10): the row's compute_units_consumed is null. */
  readonly missingComputeUnits: boolean;
}

/**
 * Decodes one entry; throws FieldError (field paths start with `field`) when the entry cannot be
 * decoded. Also works on a getTransaction result, which has the same `{transaction, meta}` shape.
 */
export function decodeEntry(
  entry: unknown,
  place: EntryPlace,
  settings: DecodeSettings,
  keys: KeyEncoder,
  field: string,
): DecodedEntry {
  if (!isObject(entry)) throw new FieldError(field, `expected a {transaction, meta} object, got ${describe(entry)}`);
  const meta = readMeta(entry.meta, `${field}.meta`);
  const { view, encoding } = viewTransaction(entry.transaction, meta.loadedAddresses, `${field}.transaction`, keys);
  if (view.signatures.length === 0) throw new FieldError(`${field}.transaction`, 'transaction has no signature');
  for (const part of ['preBalances', 'postBalances'] as const) {
    if (meta[part].length !== view.accountKeys.length) {
      throw new FieldError(
        `${field}.meta.${part}`,
        `${meta[part].length} balances for ${view.accountKeys.length} account keys`,
      );
    }
  }

  const budget = decodeComputeBudget(view.instructions, defaultLimitRuleAt(place.slot, settings));
  const program = view.instructions.find((ix) => ix.programId !== COMPUTE_BUDGET_PROGRAM)?.programId ?? COMPUTE_BUDGET_PROGRAM;
  const locks = writeLocks(view);
  const transaction: TransactionRow = {
    slot: place.slot,
    index: place.index,
    signature: view.signatures[0],
    signer: view.accountKeys[0],
    program,
    is_vote: isVoteTransaction(view),
    failed: meta.failed,
    compute_unit_price: budget.computeUnitPrice,
    compute_unit_limit: budget.computeUnitLimit,
    compute_units_consumed: meta.computeUnitsConsumed,
    priority_fee: priorityFeeOf(budget.computeUnitPrice, budget.computeUnitLimit),
    writable_accounts: locks.writable,
    readonly_accounts: locks.readonly,
  };
  const trade = transaction.is_vote
    ? null
    : deriveTrade(view, meta, { slot: place.slot, txIndex: place.index, timestamp: place.timestamp, signature: view.signatures[0] }, settings.trades);
  return {
    transaction,
    trade,
    encoding,
    anomaly: budget.anomaly,
    tokenBalances: [...meta.preTokenBalances, ...meta.postTokenBalances],
    missingComputeUnits: meta.computeUnitsConsumed === null,
  };
}
