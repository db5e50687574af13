import { limit, window } from '../../rpc/params.js';
import { TopTransaction } from '../../schema/records.js';
import { TOP_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** The highest-priority-fee transactions of the trailing 5 minutes. */
export default defineMethod({
  name: 'chain::priorityfee::top_txs',
  summary: 'The highest-priority-fee transactions of the trailing 5 minutes.',
  record: TopTransaction,
  params: { window: window(TOP_WINDOWS), limit: limit(1, 1000, 100) },
  // Answers from the store; over an empty store there is nothing to answer with.
  handle: () => [],
});
