/**
 * The accounts a transaction write-locks at run time (agave's `SanitizedMessage::is_writable`): those
 * the message asks writable, except the reserved keys (builtin programs, precompiles, sysvars) and
 * the programs its top-level instructions invoke, unless it also loads the upgradeable loader. These
 * are the accounts whose local fee market the transaction competes in (docs/semantics.md, Local fee
 * markets); every other key of the transaction is read-only.
 */
import { RESERVED_ACCOUNT_KEYS, UPGRADEABLE_LOADER } from './programs.js';
import type { TransactionView } from './transaction-view.js';

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
