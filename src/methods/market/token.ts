import { mint } from '../../rpc/params.js';
import { recordId } from '../../schema/ids.js';
import { Token } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/**
 * Token metadata by mint, or every known token sorted by mint. Token metadata is not versioned in
 * time: `at` is accepted and does not filter.
 */
export default defineMethod({
  name: 'chain::market::token',
  summary: 'Token metadata by mint, or every known token sorted by mint.',
  record: Token,
  params: { mint: mint('token mint to look up; omitted: every token') },
  async handle(params, { store }) {
    const tokens = (await store?.tokens({ mint: params.mint })) ?? [];
    return tokens.map((t) => ({
      id: recordId('chain::market::token', t.mint),
      mint: t.mint,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      supply: t.supply ?? null,
    }));
  },
});
