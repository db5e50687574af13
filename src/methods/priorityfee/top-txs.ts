import { limit, window } from '../../rpc/params.js';
import { TopTransaction } from '../../schema/records.js';
import { TOP_WINDOWS } from '../../schema/time.js';
import { topTransactions } from '../../priorityfee/top-transactions.js';
import { defineMethod } from '../method.js';

/** The highest-priority-fee transactions of the trailing 5 minutes (at most 100). */
export default defineMethod({
  name: 'chain::priorityfee::top_txs',
  summary: 'The highest-priority-fee transactions of the trailing 5 minutes.',
  record: TopTransaction,
  params: { window: window(TOP_WINDOWS), limit: limit(1, 1000, 100) },
  handle: (params, { store }) => topTransactions(store, params.windowNs!, params.window!, params.limit, params.at),
});
