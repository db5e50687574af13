import { mint } from '../../rpc/params.js';
import { tokenRecord } from '../../market/token-book.js';
import { Token } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/**
 * Token metadata by mint, or every known token sorted by mint. Token metadata is not versioned in
 * time: `at` is accepted and does not filter. Live from memory; with `at`, read from the store.
 */
export default defineMethod({
  name: 'chain::market::token',
  summary: 'Token metadata by mint, or every known token sorted by mint.',
  record: Token,
  params: { mint: mint('token mint to look up; omitted: every token') },
  async handle(params, { store, market }) {
    const tokens = params.at === undefined ? market.tokens.tokens(params.mint) : ((await store?.tokens({ mint: params.mint })) ?? []);
    return tokens.map(tokenRecord);
  },
});
