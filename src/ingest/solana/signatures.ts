/** Signature counts that the base fee (5,000 lamports per signature) is charged on. */
import { PRECOMPILE_PROGRAMS } from './programs.js';
import type { TransactionView } from './transaction-view.js';

/** Lamports per signature on mainnet since genesis. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

/**
 * Signatures verified by precompile instructions (ed25519, secp256k1, secp256r1): the first byte of
 * each top-level precompile instruction's data is its signature count, and the runtime charges each
 * like a transaction signature (agave `get_num_signatures_in_instruction`; empty data counts 0).
 */
export function precompileSignatureCount(view: TransactionView): number {
  let count = 0;
  for (const ix of view.instructions) {
    if (PRECOMPILE_PROGRAMS.has(ix.programId)) count += ix.data?.[0] ?? 0;
  }
  return count;
}

/** The base fee: 5,000 lamports x (transaction signatures + precompile signatures). */
export function baseFee(view: TransactionView): bigint {
  return LAMPORTS_PER_SIGNATURE * BigInt(view.signatures.length + precompileSignatureCount(view));
}
