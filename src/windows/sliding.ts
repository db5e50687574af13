/** One block's entry in a {@link SlidingBlocks} queue. */
export interface SlidingBlock<T> {
  timestamp: bigint;
  data: T;
}

/**
 * Per-block entries of a trailing window, oldest first. The window is [start, end): `expire(start)`
 * pops the blocks with timestamp < start so the caller can remove their samples from its aggregates;
 * a block exactly at `start` stays.
 */
export class SlidingBlocks<T> {
  private items: (SlidingBlock<T> | undefined)[] = [];
  private head = 0;

  /** Number of blocks held. */
  get size(): number {
    return this.items.length - this.head;
  }

  /** Appends a block; timestamps must not decrease (equal timestamps are fine). */
  push(timestamp: bigint, data: T): void {
    const newest = this.newest();
    if (newest !== undefined && timestamp < newest.timestamp) {
      throw new RangeError(`SlidingBlocks.push: timestamp ${timestamp} is older than the newest block (${newest.timestamp})`);
    }
    this.items.push({ timestamp, data });
  }

  /** Pops and returns, oldest first, the blocks with timestamp < windowStart. */
  expire(windowStart: bigint): SlidingBlock<T>[] {
    const expired: SlidingBlock<T>[] = [];
    while (this.head < this.items.length) {
      const block = this.items[this.head]!;
      if (block.timestamp >= windowStart) break;
      expired.push(block);
      this.items[this.head++] = undefined;
    }
    // compact once the dead prefix outgrows the live part, so pops stay amortized O(1)
    if (this.head > 32 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return expired;
  }

  /** The oldest block, if any. */
  oldest(): SlidingBlock<T> | undefined {
    return this.items[this.head];
  }

  /** The newest block, if any. */
  newest(): SlidingBlock<T> | undefined {
    return this.size === 0 ? undefined : this.items[this.items.length - 1];
  }

  /** Drops every block. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }

  /** The blocks held, oldest first. */
  *[Symbol.iterator](): IterableIterator<SlidingBlock<T>> {
    for (let i = this.head; i < this.items.length; i++) yield this.items[i]!;
  }
}
