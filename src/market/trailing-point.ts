/**
 * One trailing data point (DESIGN.md 5): the window [end - w, end) with end = the block's time +
 * 1 ns, over a pair's blocks. Volume, VWAP and TWAP records are all read from it.
 *
 * TWAP (DESIGN.md 7): the close price of each block is held until the pair's next block; the
 * window adds the inner stretches (trailing-window.ts), the stretch carried in from the last block
 * before the window start (from the start to the first block inside), and the newest block's 1 ns
 * to the window end. total_duration is the time covered: the whole window with a carry-in, else
 * from the pair's first block. USD: each stretch's close x quote_usd_price; unknown when a stretch
 * of positive length has no USD price.
 */
import { ExactSum } from './exact-sum.js';
import type { TrailingWindow } from './trailing-window.js';

/** The values of one trailing data point, before they become records. */
export interface TrailingPoint {
  slot: bigint;
  time: bigint;
  windowStart: bigint;
  windowEnd: bigint;
  baseVolume: number;
  quoteVolume: number;
  buyVolume: number;
  sellVolume: number;
  /** USD values of the quote volumes, null when a block of the window has no USD price. */
  volumeUsd: number | null;
  buyVolumeUsd: number | null;
  sellVolumeUsd: number | null;
  /** Trades in the window. */
  count: number;
  buyCount: number;
  /** The newest block's close price (current_price) and its USD value. */
  close: number;
  closeUsd: number | null;
  /** Sum of price x held time, in price x ns. */
  weighted: number;
  weightedUsd: number | null;
  /** Time covered by held prices, ns. */
  duration: bigint;
}

/** The data point of the window's newest block; the window must be [first block at or after end - w, that block]. */
export function trailingPoint(window: TrailingWindow, width: bigint): TrailingPoint {
  const s = window.series;
  const { lo, hi } = window;
  const close = s.values.close;
  const usd = s.values.quoteUsd;
  const time = s.time[hi]!;
  const end = time + 1n;
  const start = end - width;
  const weighted = window.weighted.clone();
  const weightedUsd = window.weightedUsd.clone();
  let weightedUsdUnknown = window.stretchUsdUnknown > 0;
  const hold = (k: number, held: number) => {
    if (held <= 0) return;
    weighted.addProduct(close[k]!, held);
    if (Number.isNaN(usd[k]!)) weightedUsdUnknown = true;
    else weightedUsd.addProduct(close[k]! * usd[k]!, held);
  };
  if (lo > 0) hold(lo - 1, Number(s.time[lo]! - start));
  hold(hi, Number(end - time));
  const volumeUsd = (sum: ExactSum) => (window.usdUnknown > 0 ? null : sum.value());
  const u = usd[hi]!;
  return {
    slot: BigInt(s.values.slot[hi]!),
    time,
    windowStart: start,
    windowEnd: end,
    baseVolume: window.baseVolume.value(),
    quoteVolume: window.quoteVolume.value(),
    buyVolume: window.buyVolume.value(),
    sellVolume: window.sellVolume.value(),
    volumeUsd: volumeUsd(window.volumeUsd),
    buyVolumeUsd: volumeUsd(window.buyVolumeUsd),
    sellVolumeUsd: volumeUsd(window.sellVolumeUsd),
    count: window.count,
    buyCount: window.buyCount,
    close: close[hi]!,
    closeUsd: Number.isNaN(u) ? null : close[hi]! * u,
    weighted: weighted.value(),
    weightedUsd: weightedUsdUnknown ? null : weightedUsd.value(),
    duration: lo > 0 ? width : end - s.time[lo]!,
  };
}
