/**
 * Instantiates the AssemblyScript kernels (assembly/) from the embedded module bytes and wraps them
 * in typed functions. Platform-independent: no `node:*` imports.
 */
import { wasmBytes as kernelsWasmBytes } from './kernels.wasm.generated.js';

/** The raw exports of build/kernels.wasm (see assembly/index.ts). */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
  reserve(n: number): number;
  capacity(): number;
  inputPtr(): number;
  millisPtr(): number;
  outputPtr(): number;
  maxPercentiles(): number;
  percentilesU64(values: number, n: number, millis: number, k: number, out: number): number;
}

/** Kernel status codes (assembly/status.ts) with what each means to a caller. */
export const KERNEL_STATUS: Readonly<Record<number, readonly [name: string, message: string]>> = {
  1: ['EMPTY', 'no values: a percentile of an empty set is undefined'],
  2: ['BAD_PERCENTILE', 'a percentile is outside 0..100000 thousandths of a percent'],
  3: ['TOO_MANY_PERCENTILES', 'too many percentiles in one call'],
  4: ['CAPACITY', 'more values than the reserved scratch memory'],
  5: ['OUT_OF_MEMORY', 'WebAssembly memory cannot grow that far (wasm32 holds at most 4 GiB)'],
};

/** Throws a clear Error for a nonzero kernel status. */
export function checkStatus(kernel: string, status: number): void {
  if (status === 0) return;
  const [name, message] = KERNEL_STATUS[status] ?? ['UNKNOWN', 'unknown status'];
  throw new Error(`${kernel}: ${message} (status ${status} ${name})`);
}

/** One instance of the kernels with its own linear memory. */
export interface Kernels {
  readonly exports: KernelExports;
  /**
   * Nearest-rank percentiles (DESIGN.md 6) of `values`; `millis[i]` is in thousandths of a percent
   * (0..100000). Copies the values into WASM memory; returns a new array, one value per percentile.
   */
  percentilesU64(values: BigUint64Array, millis: Uint32Array): BigUint64Array;
}

let compiled: WebAssembly.Module | undefined;

/** Compiles the embedded module once per thread (it is under 4 KiB, so synchronous compiling is allowed everywhere). */
export function kernelsModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(kernelsWasmBytes()));
}

/** Instantiates the kernels synchronously; `initialValues` pre-sizes (and touches) the memory. */
export function createKernels(initialValues = 0): Kernels {
  const exports = new WebAssembly.Instance(kernelsModule(), {}).exports as unknown as KernelExports;
  checkStatus('reserve', exports.reserve(initialValues));
  return {
    exports,
    percentilesU64(values, millis) {
      const n = values.length;
      const k = millis.length;
      const max = exports.maxPercentiles();
      if (k > max) throw new Error(`percentilesU64: ${k} percentiles, at most ${max} per call`);
      checkStatus('percentilesU64', exports.reserve(n));
      // reserve() may have grown the memory, which detaches older views: make views only now.
      const { buffer } = exports.memory;
      const input = exports.inputPtr();
      new BigUint64Array(buffer, input, n).set(values);
      new Uint32Array(buffer, exports.millisPtr(), k).set(millis);
      const out = exports.outputPtr();
      checkStatus('percentilesU64', exports.percentilesU64(input, n, exports.millisPtr(), k, out));
      return new BigUint64Array(buffer, out, k).slice();
    },
  };
}

let shared: Kernels | undefined;

/** The percentile kernel on this thread's shared kernel instance (created on first use). */
export function percentilesU64(values: BigUint64Array, millis: Uint32Array): BigUint64Array {
  return (shared ??= createKernels()).percentilesU64(values, millis);
}
