/**
 * Compute budget of a transaction as the runtime derives it from the top-level ComputeBudget
 * instructions (agave `compute-budget-instruction`, `ComputeBudgetInstructionDetails`).
 */
import { COMPUTE_BUDGET_PROGRAM } from './programs.js';
import type { TxInstruction } from './transaction-view.js';

/** The most CUs a transaction can request or be given (agave `compute_budget_limits.rs`). */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;
/** Default CUs per instruction without SetComputeUnitLimit (per non-builtin one after SIMD-0170). */
export const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000;
/** Default CUs per builtin instruction after SIMD-0170. */
export const MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT = 3_000;
const MIN_HEAP_FRAME_BYTES = 32 * 1024;
const MAX_HEAP_FRAME_BYTES = 256 * 1024;

/** Why the runtime refused a transaction's compute budget instructions. */
export type ComputeBudgetAnomaly =
  | { kind: 'duplicate'; instruction: number }
  | { kind: 'invalid'; instruction: number };

/** How the default limit is computed: before SIMD-0170 or after it, with its builtin program list. */
export interface DefaultLimitRule {
  readonly simd0170: boolean;
  readonly builtinPrograms: ReadonlySet<string>;
}

/** The price (micro-lamports per CU) and limit (CUs) the fee is charged on. */
export interface ComputeBudget {
  readonly computeUnitPrice: bigint;
  readonly computeUnitLimit: number;
  readonly anomaly: ComputeBudgetAnomaly | null;
}

/** The runtime's fallback when the instructions do not process (`ComputeBudgetLimits::default()`). */
const REFUSED = { computeUnitPrice: 0n, computeUnitLimit: MAX_COMPUTE_UNIT_LIMIT };

/**
 * Decodes the ComputeBudget instructions of `instructions` (top level, in order). The borsh enum tag
 * is the first byte; trailing bytes are ignored (`try_from_slice_unchecked`). A second instruction
 * of a kind already seen, a short payload, an unknown tag, the deprecated RequestUnits (tag 0,
 * rejected since `remove_deprecated_request_unit_ix`), a heap frame outside 32-256 KiB or not a
 * multiple of 1024, or a zero loaded-accounts limit all make the runtime refuse the budget; the fee
 * is then computed from `ComputeBudgetLimits::default()`: price 0, limit 1,400,000.
 */
export function decodeComputeBudget(instructions: readonly TxInstruction[], rule: DefaultLimitRule): ComputeBudget {
  let limit: number | undefined;
  let price: bigint | undefined;
  let heap: number | undefined;
  let heapIndex = 0;
  let loadedBytes: number | undefined;
  let loadedBytesIndex = 0;
  let nonComputeBudget = 0;
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i];
    if (ix.programId !== COMPUTE_BUDGET_PROGRAM) {
      nonComputeBudget++;
      continue;
    }
    const data = ix.data ?? new Uint8Array(0);
    const invalid = { ...REFUSED, anomaly: { kind: 'invalid', instruction: i } } as const;
    const duplicate = { ...REFUSED, anomaly: { kind: 'duplicate', instruction: i } } as const;
    switch (data[0]) {
      case 1:
        if (data.length < 5) return invalid;
        if (heap !== undefined) return duplicate;
        heap = u32(data);
        heapIndex = i;
        break;
      case 2:
        if (data.length < 5) return invalid;
        if (limit !== undefined) return duplicate;
        limit = u32(data);
        break;
      case 3:
        if (data.length < 9) return invalid;
        if (price !== undefined) return duplicate;
        price = u64(data);
        break;
      case 4:
        if (data.length < 5) return invalid;
        if (loadedBytes !== undefined) return duplicate;
        loadedBytes = u32(data);
        loadedBytesIndex = i;
        break;
      default:
        return invalid;
    }
  }
  if (heap !== undefined && (heap < MIN_HEAP_FRAME_BYTES || heap > MAX_HEAP_FRAME_BYTES || heap % 1024 !== 0)) {
    return { ...REFUSED, anomaly: { kind: 'invalid', instruction: heapIndex } };
  }
  if (loadedBytes === 0) return { ...REFUSED, anomaly: { kind: 'invalid', instruction: loadedBytesIndex } };
  const requested = limit ?? defaultComputeUnitLimit(instructions, nonComputeBudget, rule);
  return { computeUnitPrice: price ?? 0n, computeUnitLimit: Math.min(requested, MAX_COMPUTE_UNIT_LIMIT), anomaly: null };
}

/**
 * The limit without SetComputeUnitLimit. Before SIMD-0170: 200,000 per instruction that is not a
 * ComputeBudget one. After it: 3,000 per builtin instruction (ComputeBudget ones included) and
 * 200,000 per other instruction. The caller caps it at 1,400,000.
 */
export function defaultComputeUnitLimit(
  instructions: readonly TxInstruction[],
  nonComputeBudget: number,
  rule: DefaultLimitRule,
): number {
  if (!rule.simd0170) return nonComputeBudget * DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
  let builtin = 0;
  for (const ix of instructions) if (rule.builtinPrograms.has(ix.programId)) builtin++;
  return builtin * MAX_BUILTIN_ALLOCATION_COMPUTE_UNIT_LIMIT + (instructions.length - builtin) * DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
}

function u32(data: Uint8Array): number {
  return (data[1] | (data[2] << 8) | (data[3] << 16)) + data[4] * 0x1000000;
}

function u64(data: Uint8Array): bigint {
  let value = 0n;
  for (let i = 8; i >= 1; i--) value = (value << 8n) | BigInt(data[i]);
  return value;
}
