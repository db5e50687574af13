/**
 * The queries of the golden records (golden-records.ts): one per method, on the oracle data set
 * with the custom-options engine's settings, as of 2024-03-14T02:00:30Z unless said otherwise.
 */
import type { OracleData } from './data.js';
import { SOL, USDC, USDT } from './data.js';
import type { OracleParams } from './oracle.js';

const AT = BigInt(Date.parse('2024-03-14T02:00:30Z')) * 1_000_000n;

/** [method, params] of each golden record (the first point of the answer). */
export function goldenQueries(data: OracleData): [string, OracleParams][] {
  const { LENS, PUPS } = data.mints;
  return [
    ['chain::market::token', { mint: LENS }],
    ['chain::priorityfee::block', { at: AT }],
    ['chain::priorityfee::fee', { window: '5m', at: BigInt(Date.parse('2024-03-14T00:03:10Z')) * 1_000_000n }],
    ['chain::priorityfee::recommendation', { window: '30s', at: AT }],
    ['chain::priorityfee::top_txs', { window: '5m', at: AT, limit: 1 }],
    ['chain::market::block', { base: SOL, quote: USDT, at: AT, limit: 1 }],
    ['chain::market::ohlcv', { window: '1h', base: LENS, quote: SOL, at: AT, limit: 1 }],
    ['chain::market::volume', { window: '12h', base: PUPS, quote: USDT, at: AT, limit: 1 }],
    ['chain::market::vwap', { window: '30m', base: SOL, quote: USDC, at: AT, limit: 1 }],
    ['chain::market::twap', { window: '2h', base: LENS, quote: SOL, at: AT, limit: 1 }],
    ['chain::market::trades', { base: SOL, at: AT, limit: 1 }],
    ['chain::market::ingestion', { at: AT, limit: 1 }],
  ];
}
