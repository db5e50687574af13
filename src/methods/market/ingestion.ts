import { limit } from '../../rpc/params.js';
import { INGESTION_HISTORY } from '../../market/ingestion-log.js';
import { Ingestion } from '../../schema/records.js';
import { recordTableName } from '../../store/ddl.js';
import { rowToRecord } from '../../store/record-arrow.js';
import { heldRowsAsOf, recordsFrom } from '../../store/retention.js';
import { sqlWhere } from '../../store/sql.js';
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
    const live = params.at === undefined ? market.ingestion.latest(params.limit) : undefined;
    if (live) return live.filter((r) => cut === undefined || r.timestamp >= cut);
    if (!store) return [];
    const rows = await store.rows(`SELECT * FROM ${recordTableName(Ingestion)}${sqlWhere(heldRowsAsOf(params.at, cut))} ORDER BY slot DESC LIMIT ${params.limit}`);
    return rows.map((row) => rowToRecord(Ingestion, row));
  },
});
