/** Simple vote transactions, as the runtime and the fee markets single them out. */
import { VOTE_PROGRAM } from './programs.js';
import type { TransactionView } from './transaction-view.js';

/**
 * A simple vote: fewer than 3 signatures and exactly one instruction, to the Vote program (the
 * shape agave's `is_simple_vote_transaction` recognises).
 */
export function isVoteTransaction(view: TransactionView): boolean {
  return view.signatures.length < 3 && view.instructions.length === 1 && view.instructions[0].programId === VOTE_PROGRAM;
}
