/**
 * What an engine cut by retention lists, from the answer of one that keeps everything
 * (docs/semantics.md, Retention), for an engine with no trailing window live when it pruned.
 */
import { RECORD_LISTS } from '../oracle/oracle.js';

const MINUTE = 60_000_000_000n;

/** Nanoseconds of a wire time (`2026-01-01T00:04:00.000000000Z`). */
export const nsOf = (wire: unknown): bigint => BigInt(Date.parse(String(wire).slice(0, 19) + 'Z')) * 1_000_000n + BigInt(String(wire).slice(20, 29));

/** The cut of `retainNs` after a block at `newest`: rounded down to a step of min(R, 1 minute). */
export function cutAfter(newest: bigint, retainNs: bigint): bigint {
  const step = retainNs < MINUTE ? retainNs : MINUTE;
  return newest - retainNs - ((newest - retainNs) % step);
}

/**
 * The part of the full answer an engine pruned at `cut` lists: market entries and the method records
 * of blocks from the cut on, fee windows and candles that end after it, trailing points whose whole
 * window starts at or after it (the market kept its blocks from the cut on); tokens whole.
 */
export function heldPart(method: string, records: readonly Record<string, unknown>[], cut: bigint): Record<string, unknown>[] {
  switch (method) {
    case 'chain::market::block':
    case 'chain::market::trades':
      return records.filter((r) => nsOf(r.timestamp) >= cut);
    case 'chain::priorityfee::fee':
    case 'chain::market::ohlcv':
      return records.filter((r) => nsOf(r.window_end) > cut);
    case 'chain::market::volume':
    case 'chain::market::vwap':
    case 'chain::market::twap':
      return records.filter((r) => nsOf(r.window_start) >= cut);
    default:
      return RECORD_LISTS.has(method) ? records.filter((r) => nsOf(r.timestamp) >= cut) : records.slice();
  }
}
