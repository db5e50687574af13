import { mint } from '../../rpc/params.js';
import { Token } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Token metadata by mint, or every known token sorted by mint. */
export default defineMethod({
  name: 'chain::market::token',
  summary: 'Token metadata by mint, or every known token sorted by mint.',
  record: Token,
  params: { mint: mint('token mint to look up; omitted: every token') },
  // Answers from the store; over an empty store there is nothing to answer with.
  handle: () => [],
});
