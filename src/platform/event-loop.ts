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
