/**
 * Per-block entries of nested trailing windows that end at the same block, oldest first. Window w
 * is [start_w, end): `expire(w, start)` pops the blocks with timestamp < start out of window w so
 * the caller can take their samples out of its aggregates (a block exactly at `start` stays).
 * Windows are expired shortest first, so a block leaves a window only after every shorter one; it
 * is dropped once it has left the last (longest).
 */
export class SlidingBlocks<T> {
  private items: { timestamp: bigint; data: T }[] = [];
  /** Blocks dropped from the front of `items` (indexes below are absolute). */
  private dropped = 0;
  /** Per window, the absolute index of its oldest block. */
  private readonly firstIn: number[];

  constructor(windows = 1) {
    this.firstIn = Array.from({ length: windows }, () => 0);
  }

  /** Appends a block to every window; timestamps must not decrease (equal timestamps are fine). */
  push(timestamp: bigint, data: T): void {
    const newest = this.items.at(-1);
    if (newest !== undefined && timestamp < newest.timestamp) {
      throw new RangeError(`SlidingBlocks.push: timestamp ${timestamp} is older than the newest block (${newest.timestamp})`);
    }
    this.items.push({ timestamp, data });
  }

  /** Takes out of `window`, oldest first, its blocks with timestamp < windowStart, and returns their data. */
  expire(window: number, windowStart: bigint): T[] {
    const expired: T[] = [];
    for (let at = this.firstIn[window] - this.dropped; at < this.items.length; at++, this.firstIn[window]++) {
      const block = this.items[at];
      if (block.timestamp >= windowStart) break;
      expired.push(block.data);
    }
    // the blocks the last window let go: dropped once they are half the list, so pops stay amortized O(1)
    const gone = this.firstIn.at(-1)! - this.dropped;
    if (gone > 32 && gone * 2 > this.items.length) {
      this.items.splice(0, gone);
      this.dropped += gone;
    }
    return expired;
  }
}
