/**
 * A full garbage collection on demand, for tests that check what a structure keeps alive
 * (WeakRefs of what it should have let go): V8's `gc`, exposed at run time in a fresh context.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
