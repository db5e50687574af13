/**
 * The wire text of floats (assembly/float-text): the shortest decimal that reads back as the same
 * float, without exponent, for a whole batch of values at once. V8's String of a double costs
 * ~250 ns (and encodeFloat32's toPrecision search several of those); the kernel writes a batch's
 * texts into its memory, one TextDecoder call makes them one string, and each value's text is a
 * substring of it. Byte for byte what String(x) rewritten as a plain decimal gave, and for float32
 * the fewest of 1..9 digits of toPrecision that round-trip through Math.fround(Number(text)).
 */
import { checkStatus } from './instance.js';
import { wasmBytes } from './float-text.wasm.generated.js';

/** The raw exports of build/float-text.wasm. */
interface FloatTextExports {
  readonly memory: WebAssembly.Memory;
  reserve(n: number): number;
  tablesPtr(): number;
  invEntries(): number;
  powEntries(): number;
  inputPtr(): number;
  endsPtr(): number;
  outputPtr(): number;
  format64(n: number): number;
  format32(n: number): number;
}

/** Values formatted per call: the output has room for the longest text each (343 bytes), ~1.5 MB in all. */
const BATCH = 4096;
/**
 * Values whose texts are decoded to one string (each text is a slice of it): V8 keeps a slice of 13
 * or more characters as a view of that string, alive while the slice is (~5 KB for typical texts).
 */
const CHUNK = 256;

interface FloatText {
  readonly k: FloatTextExports;
  readonly input: Float64Array;
  readonly ends: Uint32Array;
  readonly output: Uint8Array;
}

let kernel: FloatText | undefined;
const decoder = new TextDecoder();

/** The module, once: its memory laid out for a batch (it never grows after) and Ryu's tables written. */
function instance(): FloatText {
  if (kernel) return kernel;
  const k = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), {}).exports as unknown as FloatTextExports;
  writeTables(k);
  checkStatus('float-text.reserve', k.reserve(BATCH));
  const { buffer } = k.memory;
  return (kernel = {
    k,
    input: new Float64Array(buffer, k.inputPtr(), BATCH),
    ends: new Uint32Array(buffer, k.endsPtr(), BATCH),
    output: new Uint8Array(buffer, k.outputPtr()),
  });
}

/**
 * Ryu's tables, 125-bit entries as two u64 (low, high): for e2 >= 0, 2^(bitlen(5^q) - 1 + 125) / 5^q
 * rounded down plus one (q < 342); for e2 < 0, the top 125 bits of 5^i (i < 326).
 */
function writeTables(k: FloatTextExports): void {
  const inv = k.invEntries();
  const pow = k.powEntries();
  const words = new BigUint64Array(k.memory.buffer, k.tablesPtr(), 2 * (inv + pow));
  const put = (entry: number, value: bigint) => {
    words[2 * entry] = BigInt.asUintN(64, value);
    words[2 * entry + 1] = value >> 64n;
  };
  let power = 1n; // 5^i
  let bits = 1n; // its bit length
  for (let i = 0; i < Math.max(inv, pow); i++, power *= 5n) {
    while (power >> bits !== 0n) bits++;
    if (i < inv) put(i, (1n << (bits - 1n + 125n)) / power + 1n);
    if (i < pow) put(inv + i, bits <= 125n ? power << (125n - bits) : power >> (bits - 125n));
  }
}

/** Formats values[0..n) a batch at a time into out[at..at + n). */
function texts(values: ArrayLike<number>, n: number, out: (string | null)[], at: number, wide: boolean): void {
  const { k, input, ends, output } = instance();
  for (let from = 0; from < n; from += BATCH) {
    const count = Math.min(BATCH, n - from);
    if (values instanceof Float64Array) input.set(values.subarray(from, from + count));
    else for (let i = 0; i < count; i++) input[i] = values[from + i]!;
    if (wide) k.format64(count);
    else k.format32(count); // count is within the reserved batch
    let start = 0; // where the next value's text starts
    for (let chunk = 0; chunk < count; chunk += CHUNK) {
      const last = Math.min(count, chunk + CHUNK) - 1;
      const text = decoder.decode(output.subarray(start, ends[last]));
      const base = start;
      for (let i = chunk; i <= last; i++) {
        const end = ends[i]!;
        out[at + from + i] = end === start ? null : text.substring(start - base, end - base); // no text: NaN, ±Infinity
        start = end;
      }
    }
  }
}

/**
 * Writes the shortest round-trip decimal of values[0..n) as float64, without exponent ("0.00000015",
 * "1000000000000000000000", ±0 as "0"), into out[at..at + n); null for NaN and ±Infinity.
 */
export function float64Texts(values: ArrayLike<number>, n: number, out: (string | null)[], at = 0): void {
  texts(values, n, out, at, true);
}

/**
 * As float64Texts for values[0..n) first rounded to float32 (Math.fround): the fewest significant
 * digits, rounded half up, that read back as that float32; null for NaN, ±Infinity and values
 * beyond float32's range.
 */
export function float32Texts(values: ArrayLike<number>, n: number, out: (string | null)[], at = 0): void {
  texts(values, n, out, at, false);
}
