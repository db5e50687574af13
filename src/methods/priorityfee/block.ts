import { limit } from '../../rpc/params.js';
import { BlockFees } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Per-block priority-fee statistics, newest first; defaults to the latest block. */
export default defineMethod({
  name: 'chain::priorityfee::block',
  summary: 'Per-block priority-fee statistics, newest first; defaults to the latest block.',
  record: BlockFees,
  params: { limit: limit(1, 1000, 1) },
  handle: (params, { store, priorityFees }) => priorityFees.blockFees.blocks(store, params.limit, params.at),
});
