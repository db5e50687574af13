/**
 * A transactions file whose signature column is required (as the canonical schema writes it) has no
 * signature to check, so a load leaves the column in the file unread and the top lists read back
 * the signatures they answer (engine-vs-oracle.test.ts checks the live and as-of answers of such a
 * load against the oracle):
 *   - a top_txs subscription while the file loads pushes, after every block, what the oracle answers
 *     over the blocks up to it: each chunk's signatures read back as its pushes need them;
 *   - the file changed after the load: the first answer that needs its signatures refuses, naming
 *     the file, and the methods that do not need them answer on;
 *   - a load or replay that starts with top_txs streamed decodes the signatures with the other text
 *     instead (each block's list is answered as it commits): its answers need the file no more.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { createEngine } from '../../src/index.node.js';
import type { BlockRow, TransactionRow } from '../../src/schema/tables.js';
import { callAny } from '../helpers/call.js';
import { mulberry32 } from '../helpers/prng.js';
import { base58 } from '../helpers/reference-accounts.js';
import { topTransactions, type FeeBlock } from '../oracle/fees.js';

const NS = 1_000_000_000n;
const rand = mulberry32(0x5195);
const int = (n: number) => Math.floor(rand() * n);
const key = () => base58(Uint8Array.from({ length: 32 }, () => int(256)));
const KEYS = Array.from({ length: 12 }, key);

/** 80 blocks of 1-150 transactions, 8 s apart (the 5-minute window slides over them), unique signatures. */
const BLOCKS: { block: BlockRow; txs: TransactionRow[] }[] = Array.from({ length: 80 }, (_, b) => {
  const slot = 9_000n + BigInt(b);
  const timestamp = 1_765_000_000n * NS + BigInt(b) * 8n * NS;
  const txs = Array.from({ length: 1 + int(150) }, (_, index): TransactionRow => {
    const price = BigInt(int(3) === 0 ? 0 : int(2_000_000));
    const limit = 100_000 + int(100_000);
    return {
      slot, index, signature: base58(Uint8Array.from({ length: 64 }, () => int(256))), signer: KEYS[int(KEYS.length)]!, program: KEYS[int(3)]!,
      is_vote: rand() < 0.3, failed: false, compute_unit_price: price, compute_unit_limit: limit, compute_units_consumed: BigInt(int(limit)),
      // given, as dumps give them: fees to derive would send the chunk down the row path, which reads every signature back at load
      priority_fee: (price * BigInt(limit) + 999_999n) / 1_000_000n, writable_accounts: [KEYS[int(KEYS.length)]!],
    };
  });
  return { block: { slot, timestamp, parent_slot: slot - 1n, block_height: null, leader: null, block_cu_limit: null }, txs };
});

const oracleBlocks = (upTo: bigint): FeeBlock[] => BLOCKS.filter(({ block }) => block.slot <= upTo)
  .map(({ block, txs }) => ({ slot: block.slot, time: block.timestamp, cuLimit: null, txs: txs.map((t) => ({ ...t, compute_units_consumed: t.compute_units_consumed!, priority_fee: t.priority_fee! })) }));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'chainlens-signatures-in-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function writeDump(folder: string): Promise<string> {
  const path = join(dir, folder);
  mkdirSync(path);
  const blocks = await createTableFileWriter(join(path, 'blocks.parquet'), 'parquet', 'blocks');
  await blocks.write(BLOCKS.map((b) => b.block));
  await blocks.close();
  const txs = await createTableFileWriter(join(path, 'transactions.parquet'), 'parquet', 'transactions', { rowGroupRows: 700 });
  await txs.write(BLOCKS.flatMap((b) => b.txs));
  await txs.close();
  return path;
}

it('a top_txs subscription during the load pushes the oracle\'s list after every block', async () => {
  const path = await writeDump('streamed');
  const engine = await createEngine();
  try {
    const pushes: { slot: bigint; result: unknown[] }[] = [];
    await engine.subscribe('chain::priorityfee::top_txs', { window: '5m' }, (push) => {
      if (push.block && push.result) pushes.push({ slot: BigInt(push.block.slot), result: push.result });
    });
    const report = await engine.load(path, { batchRows: 500, signaturesInFile: true });
    expect(report.rejected).toBe(0);
    expect(pushes.map((p) => p.slot)).toEqual(BLOCKS.map((b) => b.block.slot));
    for (const { slot, result } of pushes) expect(result, `after slot ${slot}`).toEqual(topTransactions(oracleBlocks(slot), 100));
  } finally {
    await engine.close();
  }
});

it('the file changed after the load: an answer that needs its signatures refuses, naming it; the others answer on', async () => {
  const path = await writeDump('changed');
  const engine = await createEngine();
  try {
    await engine.load(path, { batchRows: 500 });
    writeFileSync(join(path, 'transactions.parquet'), 'PAR1 replaced PAR1');
    const error = await callAny(engine, 'chain::priorityfee::top_txs', { window: '5m' }).catch((e: unknown) => e);
    expect(JSON.stringify(error)).toMatch(/transactions\.parquet: its signature .*changed/);
    const [newest] = await callAny(engine, 'chain::priorityfee::block', { limit: 1 });
    expect(newest!.slot).toBe(String(BLOCKS.at(-1)!.block.slot));
  } finally {
    await engine.close();
  }
});

it('a load or replay that starts with top_txs streamed decodes the signatures: answers need the file no more', async () => {
  const last = BLOCKS.at(-1)!.block;
  const middle = BLOCKS[40]!.block;
  for (const start of ['load', 'replay'] as const) {
    const path = await writeDump(`streamed-${start}`);
    const engine = await createEngine();
    try {
      // streamed when the load starts, then ended after the first block: no later chunk's signatures are answered during it
      const pushes: unknown[][] = [];
      const subscription = await engine.subscribe('chain::priorityfee::top_txs', { window: '5m' }, (push) => {
        if (push.result && pushes.push(push.result) === 1) void subscription.unsubscribe();
      });
      if (start === 'load') expect((await engine.load(path, { batchRows: 500 })).rejected).toBe(0);
      else expect((await engine.replay(path, { speed: Infinity })).blocks).toBe(BLOCKS.length);
      expect(pushes[0], start).toEqual(topTransactions(oracleBlocks(BLOCKS[0]!.block.slot), 100));
      writeFileSync(join(path, 'transactions.parquet'), 'PAR1 replaced PAR1');
      const at = await callAny(engine, 'chain::priorityfee::top_txs', { window: '5m', at: Number(middle.timestamp / NS) + 1 }); // just after its block
      expect(at, `${start} as of slot ${middle.slot}`).toEqual(topTransactions(oracleBlocks(middle.slot), 100));
      expect(await callAny(engine, 'chain::priorityfee::top_txs', { window: '5m' }), start).toEqual(topTransactions(oracleBlocks(last.slot), 100));
    } finally {
      await engine.close();
    }
  }
});
