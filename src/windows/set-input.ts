/**
 * What the WebAssembly-held sets (ordered-multiset.ts, nested-windows.ts) check of their input, and
 * how they report a memory that cannot grow.
 */
import { checkStatus } from '../kernels/instance.js';
import { U64_MAX } from '../schema/amounts.js';
import { isPosition } from './position-sum.js';

export function checkPayload(who: string, payload: number): void {
  if (!isPosition(payload)) throw new RangeError(`${who}: payload ${payload} is not a position (an f64 in [0, 1] on the 2^-96 grid)`);
}

export function checkKey(who: string, key: bigint): void {
  if (key < 0n || key > U64_MAX) throw new RangeError(`${who}: key ${key} outside u64`);
}

/**
 * Runs a call that may grow the instance's memory. It traps (a RuntimeError) only when wasm32's
 * 4 GiB cannot hold the set: said plainly. The set is then unusable (it stopped mid-change).
 */
export function grows<T>(who: string, call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      throw new Error(`${who}: WebAssembly memory cannot grow that far (wasm32 holds at most 4 GiB a set)`, { cause: error });
    }
    throw error;
  }
}

/** The input region a set instance exports. */
export interface SetInput {
  readonly memory: WebAssembly.Memory;
  reserve(n: number): number;
  inputKeysPtr(): number;
  inputPayloadsPtr(): number;
}

/** Checks a batch and copies it into the instance's input region. */
export function copyInput(who: string, set: SetInput, keys: BigUint64Array, payloads: Float64Array | undefined): void {
  const n = keys.length;
  if (payloads !== undefined) {
    if (payloads.length !== n) throw new RangeError(`${who}: ${n} keys but ${payloads.length} payloads`);
    for (let i = 0; i < n; i++) checkPayload(who, payloads[i]);
  }
  checkStatus(who, set.reserve(n));
  // reserve() may have grown the memory, which detaches older views: make views only now
  new BigUint64Array(set.memory.buffer, set.inputKeysPtr(), n).set(keys);
  if (payloads !== undefined) new Float64Array(set.memory.buffer, set.inputPayloadsPtr(), n).set(payloads);
}
