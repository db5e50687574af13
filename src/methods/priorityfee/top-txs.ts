import { limit, window } from '../../rpc/params.js';
import { TopTransaction } from '../../schema/records.js';
import { TOP_WINDOWS } from '../../schema/time.js';
import { TOP_WINDOW, topTransactionsAsOf } from '../../priorityfee/top-tracker.js';
import { defineMethod } from '../method.js';

/** The highest-priority-fee transactions of the trailing 5 minutes (at most 100): live from memory, as of `at` by the same tracker over the store's transactions. */
export default defineMethod({
  name: 'chain::priorityfee::top_txs',
  summary: 'The highest-priority-fee transactions of the trailing 5 minutes.',
  record: TopTransaction,
  params: { window: window(TOP_WINDOWS), limit: limit(1, 1000, 100) },
  handle: (params, { store, priorityFees }) =>
    params.at === undefined && params.window === TOP_WINDOW
      ? priorityFees.topTransactions.top(params.limit)
      : topTransactionsAsOf(store, params.limit, params.at),
});
