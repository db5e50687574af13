/**
 * Letting the event loop run in the middle of long work (the ingest pipeline between its stages),
 * so that a request waiting in the macrotask queue is answered before the next stage begins.
 *
 * A resolved promise is not enough: its continuation runs before any macrotask. Node has
 * setImmediate (runs after pending I/O and port messages, no timer). Browsers do not, and nest
 * setTimeout(0) up to a 4 ms clamp, so there a MessageChannel message is the next macrotask.
 */

type Wake = () => void;

/** Posts to itself: every message wakes the oldest waiter. Made on first use. */
let channel: { post(): void; waiting: Wake[] } | undefined;

function viaMessageChannel(): Promise<void> {
  if (!channel) {
    const { port1, port2 } = new MessageChannel();
    const waiting: Wake[] = [];
    port1.onmessage = () => waiting.shift()?.();
    channel = { post: () => port2.postMessage(null), waiting };
  }
  const { post, waiting } = channel;
  return new Promise((resolve) => {
    waiting.push(resolve);
    post();
  });
}

/** Resolves after the macrotasks already queued have had their turn. */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((resolve) => setImmediate(resolve));
  if (typeof MessageChannel === 'function') return viaMessageChannel();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Long synchronous work cut into slices of about `budgetMs`: the loop asks `spent` now and then
 * (reading the clock costs ~30 ns), and `next()` lets the event loop run and starts a new slice.
 * A request that arrives meanwhile waits for one slice, not for the whole work.
 */
export class TimeSlices {
  #start = performance.now();

  constructor(private readonly budgetMs = SLICE_MS) {}

  get spent(): boolean {
    return performance.now() - this.#start >= this.budgetMs;
  }

  async next(): Promise<void> {
    await yieldToEventLoop();
    this.#start = performance.now();
  }

  /** Runs work written as `Steps`, letting the event loop run at a step where a slice is spent. */
  async run<T>(steps: Steps<T>): Promise<T> {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      if (this.spent) await this.next();
    }
  }
}

/**
 * Synchronous work that may be cut: a generator that yields (nothing) where it can pause and
 * returns its result. `TimeSlices.run` pauses it when a slice is spent; `runToEnd` runs it through.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to the end at once. */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The slice of work an ingest does between two turns of the event loop (docs/architecture.md, latency). */
export const SLICE_MS = 0.25;
