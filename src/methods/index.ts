/** The method table: every documented method, one module each. Dispatch and docs read it. */
import marketBlock from './market/block.js';
import ingestion from './market/ingestion.js';
import ohlcv from './market/ohlcv.js';
import token from './market/token.js';
import trades from './market/trades.js';
import twap from './market/twap.js';
import volume from './market/volume.js';
import vwap from './market/vwap.js';
import type { MethodDefinition } from './method.js';
import priorityFeeBlock from './priorityfee/block.js';
import fee from './priorityfee/fee.js';
import estimate from './priorityfee/estimate.js';
import recent from './priorityfee/recent.js';
import recommendation from './priorityfee/recommendation.js';
import topTxs from './priorityfee/top-txs.js';

/**
 * Every method, each with its literal type (the public method map derives from it): the seed's
 * twelve in the order of its section 4, then chainlens' own (local fee markets).
 */
export const METHOD_DEFINITIONS = [
  token, priorityFeeBlock, fee, recommendation, topTxs,
  marketBlock, ohlcv, volume, vwap, twap, trades, ingestion,
  estimate, recent,
] as const;

/** Every method: the seed's twelve, then chainlens' own. */
export const METHODS: readonly MethodDefinition[] = METHOD_DEFINITIONS as unknown as readonly MethodDefinition[];

/** Methods by name. */
export const METHOD_TABLE: ReadonlyMap<string, MethodDefinition> = new Map(METHODS.map((m) => [m.name, m]));
