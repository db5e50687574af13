/**
 * Memory answers under retention (engine option `retain`): the store deletes rows older than its
 * cut, while the live lists in memory (recent trades, ingestion timings) keep their newest entries
 * whatever their age. A live answer that reaches back before the cut is therefore not the store's;
 * the method asks the store instead.
 */
import type { History } from '../store/retention.js';

/** Whether the store still holds the rows of time `time` (nanoseconds). */
export function storeHolds(history: History, time: bigint): boolean {
  // History says so only by refusing: assertHeld(t, 0) throws exactly when t is before the cut
  try {
    history.assertHeld(time, 0n);
    return true;
  } catch {
    return false;
  }
}

/** `answer` (newest first, times not increasing) when the store holds all of it, else undefined. */
export function heldAnswer<T extends { timestamp: bigint }>(history: History, answer: readonly T[] | undefined): readonly T[] | undefined {
  if (answer === undefined || answer.length === 0) return answer;
  return storeHolds(history, answer[answer.length - 1]!.timestamp) ? answer : undefined;
}
