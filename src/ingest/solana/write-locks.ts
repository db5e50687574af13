/**
 * The accounts a transaction write-locks at run time (agave's `SanitizedMessage::is_writable`): those
 * the message asks writable, except the reserved keys (builtin programs, precompiles, sysvars) and
 * the programs its top-level instructions invoke, unless it also loads the upgradeable loader. These
 * are the accounts whose local fee market the transaction competes in (docs/semantics.md, Local fee
 * markets); every other key of the transaction is read-only.
 */
import { decodeBase58 } from '../../schema/base58.js';
import { decodeBase64 } from './base64.js';
import { RESERVED_ACCOUNT_KEYS, UPGRADEABLE_LOADER } from './programs.js';
import { headerWritable, KeyEncoder, type TransactionView } from './transaction-view.js';
import { decodeWireTransaction, WireFormatError, type WireTransaction } from './wire-format.js';

/** A transaction's keys split by how the runtime locks them, each in account-list order. */
export interface WriteLocks {
  readonly writable: string[];
  readonly readonly: string[];
}

export function writeLocks(view: TransactionView): WriteLocks {
  const { accountKeys, writable: asked, instructions } = view;
  const keepsProgramsWritable = accountKeys.includes(UPGRADEABLE_LOADER);
  const invoked = keepsProgramsWritable ? undefined : new Set(instructions.map((ix) => ix.programId));
  const out: WriteLocks = { writable: [], readonly: [] };
  for (let i = 0; i < accountKeys.length; i++) {
    const key = accountKeys[i]!;
    const locked = asked[i] === true && !RESERVED_ACCOUNT_KEYS.has(key) && !invoked?.has(key);
    (locked ? out.writable : out.readonly).push(key);
  }
  return out;
}

/**
 * The accounts a serialized transaction (base64 or base58, tried in that order: the bytes must be
 * exactly one transaction) write-locks, or why it cannot be read. Of a v0 transaction only the
 * static keys are known: its lookup tables' addresses need the chain's state, so they are left out.
 */
export function serializedWriteLocks(text: string): string[] | string {
  let wire: WireTransaction | undefined;
  let why = 'not base64 or base58 text';
  for (const bytes of [decodeBase64(text), decodeBase58(text)]) {
    if (!bytes) continue;
    try {
      wire = decodeWireTransaction(bytes);
      break;
    } catch (error) {
      if (!(error instanceof WireFormatError)) throw error;
      why = `not a serialized transaction: ${error.message}`;
    }
  }
  if (!wire) return why;
  const keys = new KeyEncoder();
  const accountKeys = wire.staticAccountKeys.map((k) => keys.encode(k));
  const twice = accountKeys.find((key, i) => accountKeys.indexOf(key) !== i);
  if (twice !== undefined) return `lists account ${twice} twice, which the runtime refuses (AccountLoadedTwice)`;
  const instructions = wire.instructions.map((ix) => ({ programId: accountKeys[ix.programIdIndex] ?? '', data: ix.data }));
  return writeLocks({ signatures: [], accountKeys, writable: headerWritable(wire.header, accountKeys.length), instructions }).writable;
}
