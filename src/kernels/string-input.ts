/**
 * The input of the kernels that take a batch of strings (assembly/keys, assembly/base58): the
 * values' bytes one after another and their offsets (u32, from 0), in the kernel's memory.
 */
import { checkStatus } from './instance.js';

/** What such a kernel exports for its input. */
export interface StringInputKernel {
  readonly memory: WebAssembly.Memory;
  /** Makes room for `n` values of `bytes` bytes in all (may grow the memory: views are made after it). */
  reserve(bytes: number, n: number): number;
  bytesPtr(): number;
  offsetsPtr(): number;
}

/** Copies values from..to of a string column (its value bytes and offsets) into the kernel's input. */
export function copyStrings(kernel: string, k: StringInputKernel, bytes: Uint8Array, offsets: Int32Array, from: number, to: number): void {
  const first = offsets[from]!;
  const last = offsets[to]!;
  checkStatus(`${kernel}.reserve`, k.reserve(last - first, to - from));
  const { buffer } = k.memory;
  new Uint8Array(buffer, k.bytesPtr(), last - first).set(bytes.subarray(first, last));
  const input = new Uint32Array(buffer, k.offsetsPtr(), to - from + 1);
  for (let i = from; i <= to; i++) input[i - from] = offsets[i]! - first;
}
