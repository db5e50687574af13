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
import recommendation from './priorityfee/recommendation.js';
import topTxs from './priorityfee/top-txs.js';

/** All twelve methods, in the seed's order of section 4, each with its literal type (the public method map derives from it). */
export const METHOD_DEFINITIONS = [
  token, priorityFeeBlock, fee, recommendation, topTxs,
  marketBlock, ohlcv, volume, vwap, twap, trades, ingestion,
] as const;

/** All twelve methods, in the seed's order of section 4. */
export const METHODS: readonly MethodDefinition[] = METHOD_DEFINITIONS as unknown as readonly MethodDefinition[];

/** Methods by name. */
export const METHOD_TABLE: ReadonlyMap<string, MethodDefinition> = new Map(METHODS.map((m) => [m.name, m]));
