/** Small synthetic dumps for the loader tests, and a pipeline over a store that keeps nothing. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TableFileInput } from '../../src/ingest/files/read.js';
import { loadInputs, type LoadOptions } from '../../src/ingest/load.js';
import { IngestPipeline, type ChunkView } from '../../src/ingest/pipeline.js';
import { expandSource, type LoadSource } from '../../src/ingest/sources.js';
import { nodePlatform } from '../../src/platform/node.js';
import type { Store } from '../../src/store/store.js';

export const PAYER = 'Payer11111111111111111111111111111111111111';
export const PROGRAM = 'Prog111111111111111111111111111111111111111';
export const MINT = 'Mint111111111111111111111111111111111111111';
export const BLOCK_TIME = 1_767_225_600; // 2026-01-01T00:00:00Z

/** A fresh temporary folder. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'chainlens-load-'));
}

/** Writes files (name -> content) into `dir`; returns `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

/** One transaction of a raw block, paying `index` lamports of fee; it holds `MINT` when `withToken`. */
function rawTransaction(index: number, withToken: boolean) {
  const tokenBalance = { accountIndex: 2, mint: MINT, owner: PAYER, uiTokenAmount: { amount: '5', decimals: 6 } };
  return {
    transaction: {
      signatures: [String(index + 1).padStart(88, '5')],
      message: {
        header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
        accountKeys: [PAYER, PROGRAM, 'Acct111111111111111111111111111111111111111'],
        recentBlockhash: '1'.repeat(32),
        instructions: [{ programIdIndex: 1, accounts: [], data: '' }],
      },
    },
    meta: {
      err: null, fee: 5000, preBalances: [10_000, 1, 1], postBalances: [5000, 1, 1], computeUnitsConsumed: 100,
      preTokenBalances: [], postTokenBalances: withToken ? [tokenBalance] : [],
    },
    version: 'legacy',
  };
}

/** A getBlock result for the block after `parentSlot`, with `transactions` transactions (the first holds MINT). */
export function rawBlock(parentSlot: number, transactions = 2): Record<string, unknown> {
  return {
    blockHeight: parentSlot, blockTime: BLOCK_TIME + parentSlot % 1000, blockhash: '2'.repeat(43), parentSlot,
    previousBlockhash: '3'.repeat(43), rewards: [],
    transactions: Array.from({ length: transactions }, (_, i) => rawTransaction(i, i === 0)),
  };
}

/** Canonical CSV text of blocks, and of `perBlock` transactions per block. */
export function canonicalCsv(slots: readonly number[], perBlock = 2): { blocks: string; transactions: string } {
  const blocks = ['slot,timestamp', ...slots.map((s) => `${s},${BLOCK_TIME + s % 1000}`)];
  const transactions = ['slot,index,signature,signer,program,is_vote,failed,compute_unit_price,compute_unit_limit,compute_units_consumed'];
  for (const slot of slots) {
    for (let i = 0; i < perBlock; i++) transactions.push(`${slot},${i},sig${slot}x${i},${PAYER},${PROGRAM},false,false,${1000 + i},200000,150`);
  }
  return { blocks: blocks.join('\n') + '\n', transactions: transactions.join('\n') + '\n' };
}

/** What a load committed, chunk by chunk: the slots of the blocks and the token rows, in commit order. */
export interface Committed {
  slots: bigint[];
  tokens: { mint: string; name: string }[];
}

const nullStore = { commit: async () => {}, appendRecords: async () => {} } as unknown as Store;

/** The real pipeline over a store that keeps nothing, recording what it commits. */
export function recordingPipeline(): { pipeline: IngestPipeline; committed: Committed } {
  const committed: Committed = { slots: [], tokens: [] };
  const observer = {
    prepare(view: ChunkView) {
      committed.slots.push(...view.blocks.map((b) => b.slot));
      for (const row of view.tokens ?? []) committed.tokens.push({ mint: String(row.mint), name: String(row.name) });
      return { records: [], apply() {} };
    },
  };
  return { pipeline: new IngestPipeline(nullStore, [observer]), committed };
}

/** Loads `source` as engine.load does in Node (expansion, then the loader), through a recording pipeline. */
export async function load(source: LoadSource, options?: LoadOptions) {
  const inputs: TableFileInput[] = await expandSource(source, nodePlatform.expandPath);
  const { pipeline, committed } = recordingPipeline();
  const report = await loadInputs(inputs, pipeline, options);
  expect(report.read).toBe(report.ingested + report.rejected);
  return { report, committed };
}
