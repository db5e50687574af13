import { limit, mint } from '../../rpc/params.js';
import { BlockTrades } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Per-block, per-pair trade aggregates with outlier trimming and USD prices, newest first. */
export default defineMethod({
  name: 'chain::market::block',
  summary: 'Per-block, per-pair trade aggregates with outlier trimming and USD prices, newest first.',
  record: BlockTrades,
  params: { base: mint('base mint filter'), quote: mint('quote mint filter'), limit: limit(1, 1000, 100) },
  handle: (params, { market }) => market.blocks(params, params.limit, params.at),
});
