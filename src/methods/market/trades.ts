import { limit, mint } from '../../rpc/params.js';
import { Trade } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Individual fills, newest first. */
export default defineMethod({
  name: 'chain::market::trades',
  summary: 'Individual fills, newest first.',
  record: Trade,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), limit: limit(1, 1000, 100) },
  // Answers from the store; over an empty store there is nothing to answer with.
  handle: () => [],
});
