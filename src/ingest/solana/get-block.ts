/**
 * Entry point: a file of raw Solana `getBlock` responses (`transactionDetails: full`; `json`,
 * `jsonParsed`, `base64` or `base58` encoding) to chainlens's canonical rows (DESIGN.md 3).
 *
 * Accepted per document: a bare result, a JSON-RPC envelope `{jsonrpc, result, id}`, or a
 * `{slot, block}` wrapper (also inside an envelope). A file holds one document, a JSON array of
 * them, or NDJSON. The slot comes from the wrapper, else from a file named `<slot>.json` or
 * `block-<slot>.<anything>` holding one block, else parent_slot + 1 with a warning.
 */
import type { BlockRow, TokenRow, TradeRow, TransactionRow } from '../../schema/tables.js';
import { decodeBlock, type BlockStats } from './block.js';
import { splitDocuments } from './documents.js';
import { describe, FieldError, isObject, toU64 } from './field-error.js';
import type { DecodeIssue } from './issues.js';
import { resolveOptions, type GetBlockDecodeOptions } from './options.js';
import { WSOL_MINT } from './programs.js';
import { KeyEncoder } from './transaction-view.js';

export type { DecodeIssue } from './issues.js';
export type { BlockStats } from './block.js';
export type { GetBlockDecodeOptions } from './options.js';

/** Everything decoded from one file; rejected blocks and transactions have no rows. */
export interface GetBlockDecodeResult {
  readonly blocks: BlockRow[];
  readonly transactions: TransactionRow[];
  readonly trades: TradeRow[];
  /** One row per mint seen in token balances (plus SOL/wSOL when a trade uses native SOL), sorted by mint. */
  readonly tokens: TokenRow[];
  readonly rejections: DecodeIssue[];
  readonly warnings: DecodeIssue[];
  /** Per accepted block: transaction, vote, rejected-transaction and compute-budget-anomaly counts. */
  readonly blockStats: BlockStats[];
}

/** Decodes the text of one file; `sourceName` (a path or name) is used in errors and for the slot. */
export function decodeGetBlockFile(text: string, sourceName: string, options?: GetBlockDecodeOptions): GetBlockDecodeResult {
  const settings = resolveOptions(options);
  const keys = new KeyEncoder();
  const result: GetBlockDecodeResult = { blocks: [], transactions: [], trades: [], tokens: [], rejections: [], warnings: [], blockStats: [] };
  const mintDecimals = new Map<string, number>();
  const documents = splitDocuments(text);
  const nameSlot = documents.length === 1 ? slotFromName(sourceName) : null;

  for (const doc of documents) {
    const reject = (field: string, message: string) => result.rejections.push({ source: sourceName, row: doc.row, field, message });
    if ('error' in doc) {
      reject('', doc.error);
      continue;
    }
    const where = doc.inArray ? `block ${doc.row} of the array` : documents.length > 1 ? `line ${doc.row}` : 'the block';
    let prefix = '';
    try {
      const { block, slot, path } = unwrap(doc.value);
      prefix = path;
      const decoded = decodeBlock(block, { source: sourceName, row: doc.row, slot: slot ?? nameSlot }, settings, keys);
      result.blocks.push(decoded.block);
      result.transactions.push(...decoded.transactions);
      result.trades.push(...decoded.trades);
      result.blockStats.push(decoded.stats);
      for (const issue of decoded.rejections) result.rejections.push({ ...issue, field: join(prefix, issue.field) });
      for (const issue of decoded.warnings) result.warnings.push({ ...issue, field: join(prefix, issue.field) });
      for (const [mint, decimals] of decoded.mintDecimals) if (!mintDecimals.has(mint)) mintDecimals.set(mint, decimals);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      reject(join(prefix, error.field), `${where} rejected: ${error.message}`);
    }
  }

  if (!mintDecimals.has(WSOL_MINT) && result.trades.some((t) => t.base === WSOL_MINT || t.quote === WSOL_MINT)) {
    mintDecimals.set(WSOL_MINT, 9);
  }
  for (const mint of [...mintDecimals.keys()].sort()) {
    const names = settings.tokenNames.get(mint);
    result.tokens.push({ mint, name: names?.name ?? '', symbol: names?.symbol ?? '', decimals: mintDecimals.get(mint)!, supply: null });
  }
  return result;
}

/** Peels a JSON-RPC envelope and a {slot, block} wrapper; `path` is the field prefix of the block. */
function unwrap(value: unknown): { block: unknown; slot: bigint | null; path: string } {
  let path = '';
  if (isObject(value) && ('jsonrpc' in value || ('id' in value && ('result' in value || 'error' in value)))) {
    if (value.error !== undefined && value.error !== null) {
      const e = value.error;
      const text = isObject(e) ? `${e.code ?? ''} ${e.message ?? ''}`.trim() : describe(e);
      throw new FieldError('error', `the RPC returned an error: ${text}`);
    }
    if (value.result === null || value.result === undefined) {
      throw new FieldError('result', 'result is null: the slot was skipped or its block is not available');
    }
    value = value.result;
    path = 'result.';
  }
  if (isObject(value) && 'block' in value && 'slot' in value && !('transactions' in value)) {
    const slot = toU64(value.slot, `${path}slot`);
    return { block: value.block, slot, path: `${path}block.` };
  }
  return { block: value, slot: null, path };
}

/** A field path under a wrapper prefix such as `result.block.`. */
function join(prefix: string, field: string): string {
  return field === '' ? prefix.replace(/\.$/, '') : prefix + field;
}

/** The slot in a getBlock file's name, `<slot>.json` or `block-<slot>.<anything>` (the last path segment). */
export function slotFromName(sourceName: string): bigint | null {
  const base = sourceName.split(/[\\/]/).pop() ?? '';
  const match = /^(\d+)\.json$/i.exec(base) ?? /^block-(\d+)\./i.exec(base);
  return match ? BigInt(match[1]) : null;
}
