import { integer, keys } from '../../rpc/params.js';
import { PrioritizationFee } from '../../schema/records.js';
import { MAX_ACCOUNTS, MAX_LOOKBACK, RECENT_METHOD } from '../../priorityfee/local-fees.js';
import { defineMethod } from '../method.js';

/**
 * Per block of the lookback, newest first, the fee Solana's getRecentPrioritizationFees reports for
 * the accounts (a chainlens method beyond the seed: docs/semantics.md, Local fee markets).
 */
export default defineMethod({
  name: RECENT_METHOD,
  summary: 'Per block of the lookback, newest first: the fee getRecentPrioritizationFees(accounts) reports (chainlens extension).',
  record: PrioritizationFee,
  params: {
    accounts: keys(0, MAX_ACCOUNTS, 'the write-locked accounts to price (none: the block minimum)'),
    lookback_slots: integer(1, MAX_LOOKBACK, MAX_LOOKBACK, 'blocks back from the newest'),
  },
  handle: (params, { priorityFees }) => priorityFees.localFees.answer(RECENT_METHOD, params) as never,
});
