import { limit, window } from '../../rpc/params.js';
import { Recommendation } from '../../schema/records.js';
import { RECO_WINDOWS } from '../../schema/time.js';
import { defineMethod } from '../method.js';

/** Priority-fee recommendations over a trailing window, one per block, newest first. */
export default defineMethod({
  name: 'chain::priorityfee::recommendation',
  summary: 'Priority-fee recommendations over a trailing window, one per block, newest first.',
  record: Recommendation,
  params: { window: window(RECO_WINDOWS, '1m'), limit: limit(1, 1000, 1) },
  handle: (params, { store, priorityFees }) =>
    priorityFees.recommendations.recommendations(store, params.window!, params.limit, params.at),
});
