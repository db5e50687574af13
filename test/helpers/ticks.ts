/**
 * Turns of the event loop while some work runs: a macrotask that queues itself again until stopped,
 * calling `onTick` each time (a request arriving meanwhile would be answered at such a turn).
 */
export function tickWhile(onTick: () => void = () => undefined): { stop(): number } {
  let ticks = 0;
  let ticking = true;
  const tick = () => {
    ticks++;
    onTick();
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      ticking = false;
      return ticks;
    },
  };
}
