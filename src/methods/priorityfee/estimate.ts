import { invalidParam } from '../../rpc/errors.js';
import { flag, integer, keys, text } from '../../rpc/params.js';
import { PriorityFeeEstimate } from '../../schema/records.js';
import { ESTIMATE_METHOD, MAX_ACCOUNTS, MAX_LOOKBACK } from '../../priorityfee/local-fees.js';
import { serializedWriteLocks } from '../../ingest/solana/write-locks.js';
import { defineMethod } from '../method.js';

/**
 * Priority-fee tiers for transactions that write-lock the given accounts, beside the cluster's, over
 * the lookback (a chainlens method beyond the seed: docs/semantics.md, Local fee markets).
 */
export default defineMethod({
  name: ESTIMATE_METHOD,
  summary: 'Priority-fee tiers of the transactions locking the accounts (combined, each, and global) over the lookback (chainlens extension).',
  record: PriorityFeeEstimate,
  params: {
    accounts: keys(1, MAX_ACCOUNTS, 'the accounts the transaction will write-lock (or give `transaction`)'),
    transaction: text('a serialized legacy or v0 transaction, base64 or base58, whose write-locked accounts are used (or give `accounts`)'),
    lookback_slots: integer(1, MAX_LOOKBACK, MAX_LOOKBACK, 'blocks back from the newest'),
    include_vote: flag(false, 'count vote transactions'),
  },
  // the accounts, given or those a serialized transaction write-locks (for its streams too)
  resolve: (params) => {
    if ((params.accounts === undefined) === (params.transaction === undefined)) {
      throw invalidParam('accounts', 'give either accounts or transaction (one of them)');
    }
    if (params.transaction === undefined) return params;
    const accounts = serializedWriteLocks(params.transaction);
    if (typeof accounts === 'string') throw invalidParam('transaction', accounts);
    return { ...params, accounts };
  },
  handle: (params, { priorityFees }) => priorityFees.localFees.answer(ESTIMATE_METHOD, params) as never,
});
