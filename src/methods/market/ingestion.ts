import { limit } from '../../rpc/params.js';
import { Ingestion } from '../../schema/records.js';
import { defineMethod } from '../method.js';

/** Per-block ingestion timings of the last 300 slots, newest first. */
export default defineMethod({
  name: 'chain::market::ingestion',
  summary: 'Per-block ingestion timings of the last 300 slots, newest first.',
  record: Ingestion,
  params: { limit: limit(1, 300, 60) },
  // Answers from the store; over an empty store there is nothing to answer with.
  handle: () => [],
});
