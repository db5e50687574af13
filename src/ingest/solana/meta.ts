/** The parts of a transaction's `meta` that decoding uses, validated and with u64 values as bigint. */
import { describe, FieldError, isObject, toU64 } from './field-error.js';

/** One entry of meta.preTokenBalances / postTokenBalances. `owner` is absent in blocks before ~2022. */
export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string | null;
  readonly amount: bigint;
  readonly decimals: number;
}

/** Validated transaction metadata. */
export interface TransactionMeta {
  readonly failed: boolean;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
  /** null when the RPC predates the field (before v1.10) or gives null. */
  readonly computeUnitsConsumed: bigint | null;
  readonly loadedAddresses: unknown;
}

/** Reads `raw` (a getBlock entry's meta); throws FieldError naming the first bad field. */
export function readMeta(raw: unknown, field: string): TransactionMeta {
  if (raw === undefined || raw === null) throw new FieldError(field, 'transaction meta is missing (the RPC node could not provide it)');
  if (!isObject(raw)) throw new FieldError(field, `expected an object, got ${describe(raw)}`);
  return {
    failed: raw.err !== null && raw.err !== undefined,
    fee: toU64(raw.fee, `${field}.fee`),
    preBalances: balances(raw.preBalances, `${field}.preBalances`),
    postBalances: balances(raw.postBalances, `${field}.postBalances`),
    preTokenBalances: tokenBalances(raw.preTokenBalances, `${field}.preTokenBalances`),
    postTokenBalances: tokenBalances(raw.postTokenBalances, `${field}.postTokenBalances`),
    computeUnitsConsumed:
      raw.computeUnitsConsumed === undefined || raw.computeUnitsConsumed === null
        ? null
        : toU64(raw.computeUnitsConsumed, `${field}.computeUnitsConsumed`),
    loadedAddresses: raw.loadedAddresses,
  };
}

function balances(raw: unknown, field: string): bigint[] {
  if (!Array.isArray(raw)) throw new FieldError(field, `expected an array of lamport balances, got ${describe(raw)}`);
  return raw.map((v, i) => toU64(v, `${field}[${i}]`));
}

function tokenBalances(raw: unknown, field: string): TokenBalance[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new FieldError(field, `expected an array, got ${describe(raw)}`);
  return raw.map((b, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(b)) throw new FieldError(at, `expected a token balance object, got ${describe(b)}`);
    if (typeof b.accountIndex !== 'number' || !Number.isInteger(b.accountIndex) || b.accountIndex < 0) {
      throw new FieldError(`${at}.accountIndex`, `expected an account index, got ${describe(b.accountIndex)}`);
    }
    if (typeof b.mint !== 'string') throw new FieldError(`${at}.mint`, `expected a base58 mint, got ${describe(b.mint)}`);
    const ui = b.uiTokenAmount;
    if (!isObject(ui)) throw new FieldError(`${at}.uiTokenAmount`, `expected an object, got ${describe(ui)}`);
    const decimals = ui.decimals;
    if (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
      throw new FieldError(`${at}.uiTokenAmount.decimals`, `expected 0-255, got ${describe(decimals)}`);
    }
    return {
      accountIndex: b.accountIndex,
      mint: b.mint,
      owner: typeof b.owner === 'string' ? b.owner : null,
      amount: toU64(ui.amount, `${at}.uiTokenAmount.amount`),
      decimals,
    };
  });
}
