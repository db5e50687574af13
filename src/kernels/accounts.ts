/**
 * The local-fee-market kernels (assembly/accounts/index.ts): tiers per write-locked account and
 * the per-block fee of Solana's prioritization fee cache, over resident transactions' account spans.
 * They run on the thread that asks (the inputs are already resident there; one copy into the
 * module's memory per call). Platform-independent: no `node:*` imports.
 */
import { checkStatus } from './instance.js';
import { wasmBytes } from './accounts.wasm.generated.js';

/** The raw exports of build/accounts.wasm. */
interface AccountKernelExports {
  readonly memory: WebAssembly.Memory;
  reserve(n: number, m: number, b: number): number;
  pricePtr(): number;
  limitPtr(): number;
  votePtr(): number;
  spanPtr(): number;
  idPtr(): number;
  blockPtr(): number;
  wantedPtr(): number;
  millisPtr(): number;
  countsPtr(): number;
  zerosPtr(): number;
  tiersPtr(): number;
  outPtr(): number;
  maxWanted(): number;
  maxTiers(): number;
  estimate(n: number, k: number, t: number, includeVote: number): number;
  recent(b: number, k: number): number;
}

/**
 * Blocks [from, to) of resident transactions with their write-locked accounts (ids of one
 * dictionary): transaction i locks ids[spans[i]..spans[i + 1]), block j is transactions
 * [blocks[j], blocks[j + 1]). The kernels read several such parts as one run of blocks, in order.
 */
export interface AccountBlocks {
  /** Per transaction, or one value for every transaction of the part (the votes': nearly always one price and limit). */
  readonly price: BigUint64Array | bigint;
  readonly limit: Uint32Array | number;
  readonly vote: Uint8Array | boolean;
  readonly spans: Uint32Array;
  readonly ids: Uint32Array;
  readonly blocks: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/** The tiers of one group of transactions. */
export interface GroupTiers {
  /** Transactions in the group. */
  readonly count: number;
  /** Of which with compute-unit price 0. */
  readonly zeros: number;
  /** One price per requested percentile; null for an empty group. */
  readonly tiers: readonly bigint[] | null;
}

/** The fee of one block (Solana's getRecentPrioritizationFees); null when the block has no counted transaction. */
export type BlockFee = bigint | null;

/** Marks a wanted key the dictionary lacks: it matches no transaction. */
export const NO_ID = 0xffff_ffff;

let instance: AccountKernelExports | undefined;

function kernels(): AccountKernelExports {
  return (instance ??= new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), {}).exports as unknown as AccountKernelExports);
}

/**
 * Copies the parts in, one after another, their offsets rebased (after reserving, which may grow and
 * detach the memory); returns the buffer and the transactions and blocks written.
 */
function load(k: AccountKernelExports, parts: readonly AccountBlocks[], wanted: Uint32Array): { buffer: ArrayBuffer; n: number; b: number } {
  if (wanted.length > k.maxWanted()) throw new Error(`accounts kernels: ${wanted.length} accounts, at most ${k.maxWanted()}`);
  // each part's transactions [first, last) and ids [idFirst, idLast)
  const runs = parts.map((p) => {
    const first = p.blocks[p.from]!;
    const last = p.blocks[p.to]!;
    return { p, first, last, idFirst: p.spans[first]!, idLast: p.spans[last]! };
  });
  const n = runs.reduce((sum, r) => sum + r.last - r.first, 0);
  const m = runs.reduce((sum, r) => sum + r.idLast - r.idFirst, 0);
  const b = runs.reduce((sum, r) => sum + r.p.to - r.p.from, 0);
  checkStatus('accounts.reserve', k.reserve(n, m, b));
  const { buffer } = k.memory;
  const price = new BigUint64Array(buffer, k.pricePtr(), n);
  const limit = new Uint32Array(buffer, k.limitPtr(), n);
  const vote = new Uint8Array(buffer, k.votePtr(), n);
  const spans = new Uint32Array(buffer, k.spanPtr(), n + 1);
  const ids = new Uint32Array(buffer, k.idPtr(), m);
  const blocks = new Uint32Array(buffer, k.blockPtr(), b + 1);
  let row = 0;
  let id = 0;
  let block = 0;
  for (const { p, first, last, idFirst, idLast } of runs) {
    const end = row + last - first;
    if (typeof p.price === 'bigint') price.fill(p.price, row, end);
    else price.set(p.price.subarray(first, last), row);
    if (typeof p.limit === 'number') limit.fill(p.limit, row, end);
    else limit.set(p.limit.subarray(first, last), row);
    if (typeof p.vote === 'boolean') vote.fill(p.vote ? 1 : 0, row, end);
    else vote.set(p.vote.subarray(first, last), row);
    ids.set(p.ids.subarray(idFirst, idLast), id);
    for (let i = first; i < last; i++) spans[row + i - first] = id + p.spans[i]! - idFirst;
    for (let j = p.from; j < p.to; j++) blocks[block + j - p.from] = row + p.blocks[j]! - first;
    row += last - first;
    id += idLast - idFirst;
    block += p.to - p.from;
  }
  spans[n] = m;
  blocks[b] = n;
  new Uint32Array(buffer, k.wantedPtr(), wanted.length).set(wanted);
  return { buffer, n, b };
}

/**
 * Nearest-rank percentiles (`millis`, thousandths of a percent) of the compute-unit price in k + 2
 * groups: each wanted account's transactions (0..k-1), those locking any of them (k), and all (k + 1).
 * Votes count only when `includeVote`. `wanted` holds distinct ids (NO_ID for unknown keys).
 */
export function accountTiers(parts: readonly AccountBlocks[], wanted: Uint32Array, millis: readonly number[], includeVote: boolean): GroupTiers[] {
  const k = kernels();
  if (millis.length > k.maxTiers()) throw new Error(`accounts kernels: ${millis.length} percentiles, at most ${k.maxTiers()}`);
  const { buffer, n } = load(k, parts, wanted);
  new Uint32Array(buffer, k.millisPtr(), millis.length).set(millis);
  checkStatus('accounts.estimate', k.estimate(n, wanted.length, millis.length, includeVote ? 1 : 0));
  const groups = wanted.length + 2;
  const counts = new Uint32Array(buffer, k.countsPtr(), groups);
  const zeros = new Uint32Array(buffer, k.zerosPtr(), groups);
  const tiers = new BigUint64Array(buffer, k.tiersPtr(), groups * k.maxTiers());
  return Array.from({ length: groups }, (_, g) => ({
    count: counts[g]!,
    zeros: zeros[g]!,
    tiers: counts[g] === 0 ? null : Array.from(tiers.subarray(g * k.maxTiers(), g * k.maxTiers() + millis.length)),
  }));
}

/** Per block: the fee Solana's prioritization fee cache reports for the wanted accounts (see assembly/accounts). */
export function recentBlockFees(parts: readonly AccountBlocks[], wanted: Uint32Array): BlockFee[] {
  const k = kernels();
  const { buffer, b } = load(k, parts, wanted);
  checkStatus('accounts.recent', k.recent(b, wanted.length));
  const fees = new BigUint64Array(buffer, k.outPtr(), b);
  const present = new Uint8Array(buffer, k.outPtr() + b * 8, b);
  return Array.from({ length: b }, (_, j) => (present[j] ? fees[j]! : null));
}
