import { limit, window } from '../../rpc/params.js';
import { TopTransaction } from '../../schema/records.js';
import { TOP_WINDOWS } from '../../schema/time.js';
import { TOP_WINDOW } from '../../priorityfee/top-tracker.js';
import { topTransactions } from '../../priorityfee/top-transactions.js';
import { defineMethod } from '../method.js';

/** The highest-priority-fee transactions of the trailing 5 minutes (at most 100): live from memory, as of `at` from the store. */
export default defineMethod({
  name: 'chain::priorityfee::top_txs',
  summary: 'The highest-priority-fee transactions of the trailing 5 minutes.',
  record: TopTransaction,
  params: { window: window(TOP_WINDOWS), limit: limit(1, 1000, 100) },
  handle: (params, { store, priorityFees }) =>
    params.at === undefined && params.window === TOP_WINDOW
      ? priorityFees.topTransactions.top(params.limit)
      : topTransactions(store, params.windowNs!, params.window!, params.limit, params.at),
});
