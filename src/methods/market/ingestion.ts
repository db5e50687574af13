import { limit } from '../../rpc/params.js';
import { INGESTION_HISTORY } from '../../market/ingestion-log.js';
import { Ingestion, type IngestionRecord } from '../../schema/records.js';
import { recordTableName } from '../../store/ddl.js';
import { rowToRecord } from '../../store/record-arrow.js';
import { recordsFrom, sinceCut } from '../../store/retention.js';
import { sqlInteger } from '../../store/sql.js';
import { defineMethod } from '../method.js';

/**
 * Per-block ingestion timings of the last 300 slots (as of `at`), newest first, down to
 * retention's cut: live from memory, as of `at` from the store.
 */
export default defineMethod({
  name: 'chain::market::ingestion',
  summary: 'Per-block ingestion timings of the last 300 slots, newest first.',
  record: Ingestion,
  params: { limit: limit(1, INGESTION_HISTORY, 60) },
  async handle(params, { store, market }) {
    const cut = store && recordsFrom(store, params.at);
    const time = (r: IngestionRecord) => r.timestamp;
    if (params.at === undefined) return sinceCut(market.ingestion.latest(params.limit), cut, time);
    if (!store) return [];
    const rows = await store.rows(`SELECT * FROM ${recordTableName(Ingestion)} WHERE "timestamp" < ${sqlInteger(params.at)} ORDER BY slot DESC LIMIT ${params.limit}`);
    return sinceCut(rows.map((row) => rowToRecord(Ingestion, row)), cut, time);
  },
});
