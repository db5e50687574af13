import { limit, window } from '../../rpc/params.js';
import { WindowFees } from '../../schema/records.js';
import { FEE_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** Tumbling-window priority-fee percentiles, newest first; the newest window may be in progress. */
export default defineMethod({
  name: 'chain::priorityfee::fee',
  summary: 'Tumbling-window priority-fee percentiles, newest first; the newest window may be in progress.',
  record: WindowFees,
  params: { window: window(FEE_WINDOWS, '1m'), limit: limit(1, 1000, 1) },
  handle: (params, { store, priorityFees }) => priorityFees.feeWindows.windows(store, params.window!, params.limit, params.at),
});
