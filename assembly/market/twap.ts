import { Status } from './status';
import { cell, cell32, setGroups } from './groups';

/**
 * Time-weighted sums (seed 2.10, DESIGN.md 7) over `m` windows [start[j], end[j]) of one sorted
 * trade list. Each trade's price is held from its time until the next trade's time or the window
 * end; the last price before the window start (the trade before it in the list, or else the
 * caller's `carryPrice`, NaN = none) is held from the start until the first trade. Without a
 * carry-in the time before the first trade in the window is not covered. Trades sharing a time
 * hold for 0 ns: only the last of them counts.
 *
 * Each held stretch of d > 0 ns adds d to duration_ns and price * (d / 1e9) to weighted_sum
 * (seconds as f64 = ns / 1e9), in time order; twap = weighted_sum / (duration_ns / 1e9), NaN when
 * nothing is covered. The USD sums use price_usd = price * quote_usd_price of the trade held (for
 * the caller's carry-in, `carryPriceUsd`), so weighted_sum_usd and twap_usd are NaN when any price
 * held for a positive time has an unknown USD price.
 *
 * Window starts must not decrease (ends may); the cost is the trades inside the windows plus n.
 * Output columns (one row per window):
 *   0 duration_ns i64 | 1 weighted_sum | 2 weighted_sum_usd | 3 twap | 4 twap_usd | 5 last_price |
 *   6 last_price_usd (f64: the price held at the window end, NaN if none) | 7 count u32 (trades in
 *   the window)
 */
export function twap(
  time: usize, base: usize, quote: usize, usd: usize, n: u32,
  starts: usize, ends: usize, m: u32, carryPrice: f64, carryPriceUsd: f64,
  out: usize, stride: u32,
): Status {
  setGroups(0, 0);
  if (m > stride) return Status.CAPACITY;
  for (let i: u32 = 1; i < n; i++) {
    if (load<i64>(time + (<usize>i << 3)) < load<i64>(time + ((<usize>i - 1) << 3))) return Status.UNSORTED;
  }
  let previousStart = i64.MIN_VALUE;
  for (let j: u32 = 0; j < m; j++) {
    const s = load<i64>(starts + (<usize>j << 3));
    if (s < previousStart || load<i64>(ends + (<usize>j << 3)) < s) return Status.BAD_WINDOW;
    previousStart = s;
  }
  let first: u32 = 0; // the first trade at or after the window start
  for (let j: u32 = 0; j < m; j++) {
    const s = load<i64>(starts + (<usize>j << 3));
    const e = load<i64>(ends + (<usize>j << 3));
    while (first < n && load<i64>(time + (<usize>first << 3)) < s) first++;
    let held = false;
    let price = carryPrice;
    let priceUsd = carryPriceUsd;
    if (first > 0) {
      const at = (<usize>first - 1) << 3;
      price = load<f64>(quote + at) / load<f64>(base + at);
      priceUsd = price * load<f64>(usd + at);
      held = true;
    } else {
      held = carryPrice == carryPrice;
    }
    let since = s;
    let duration: i64 = 0;
    let sum = 0.0;
    let sumUsd = 0.0;
    let i = first;
    for (; i < n; i++) {
      const at = <usize>i << 3;
      const t = load<i64>(time + at);
      if (t >= e) break;
      if (held && t > since) {
        const seconds = <f64>(t - since) / 1e9;
        sum += price * seconds;
        sumUsd += priceUsd * seconds;
        duration += t - since;
      }
      price = load<f64>(quote + at) / load<f64>(base + at);
      priceUsd = price * load<f64>(usd + at);
      held = true;
      since = t;
    }
    if (held && e > since) {
      const seconds = <f64>(e - since) / 1e9;
      sum += price * seconds;
      sumUsd += priceUsd * seconds;
      duration += e - since;
    }
    const covered = <f64>duration / 1e9;
    store<i64>(cell(out, stride, 0, j), duration);
    store<f64>(cell(out, stride, 1, j), sum);
    store<f64>(cell(out, stride, 2, j), sumUsd);
    store<f64>(cell(out, stride, 3, j), duration > 0 ? sum / covered : NaN);
    store<f64>(cell(out, stride, 4, j), duration > 0 ? sumUsd / covered : NaN);
    store<f64>(cell(out, stride, 5, j), held ? price : NaN);
    store<f64>(cell(out, stride, 6, j), held ? priceUsd : NaN);
    store<u32>(cell32(out, stride, 7, j), i - first);
  }
  setGroups(m, 0);
  return Status.OK;
}
