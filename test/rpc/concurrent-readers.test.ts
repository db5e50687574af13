/**
 * Eight readers (local object, local text, MessagePort object and text) query while blocks are
 * ingested one call at a time. Whatever moment a reader catches, it sees whole blocks only, a
 * record's id never changes, and the methods of one batch agree on the newest block (the fee window
 * in progress too: its newest block and its transactions are the published blocks'; the
 * recommendation's points too, though its window is first asked while blocks are ingested).
 */
import { MessageChannel } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { generateBlocks, generateTokens } from '../../src/generate/market.js';
import { connect, createEngine, type Client, type Engine } from '../../src/index.node.js';
import type { ResponseEntry } from '../../src/rpc/dispatch.js';

const market = [...generateBlocks({ blocks: 60, txPerBlock: 60, seed: 'concurrent-readers' })];
const txCount = new Map(market.map((b) => [String(b.block.slot), b.transactions.length]));
const tradeCount = new Map(market.map((b) => [String(b.block.slot), b.trades.length]));

const engines: Engine[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const e of engines) await e.close();
});

/** One batch: the newest block of three methods, and the trades. */
const BATCH = [
  { jsonrpc: '2.0', id: 1, method: 'chain::priorityfee::block', params: { limit: 100 } },
  { jsonrpc: '2.0', id: 2, method: 'chain::market::ingestion', params: { limit: 1 } },
  { jsonrpc: '2.0', id: 3, method: 'chain::market::trades', params: { limit: 1000 } },
  { jsonrpc: '2.0', id: 4, method: 'chain::priorityfee::fee', params: { window: '1m', limit: 1 } },
];

interface Seen {
  queries: number;
  violations: string[];
}

function check(reply: ResponseEntry[], ids: Map<string, string>, seen: Seen): void {
  seen.queries++;
  const result = (id: number) => (reply.find((e) => e.id === id) as { result?: Record<string, string>[] } | undefined)?.result;
  const fees = result(1);
  const timings = result(2);
  const trades = result(3);
  const feeWindows = result(4);
  if (!fees || !timings || !trades || !feeWindows) return void seen.violations.push(`an error: ${JSON.stringify(reply).slice(0, 200)}`);
  for (const f of fees) {
    if (Number(f.total_tx_count) !== txCount.get(f.slot!)) seen.violations.push(`slot ${f.slot}: ${f.total_tx_count} of ${txCount.get(f.slot!)} transactions`);
    const known = ids.get(`fee ${f.slot}`);
    if (known !== undefined && known !== f.id) seen.violations.push(`slot ${f.slot}: id ${known} became ${f.id}`);
    ids.set(`fee ${f.slot}`, f.id!);
  }
  if (trades.length < 1000) {
    const perSlot = new Map<string, number>();
    for (const t of trades) perSlot.set(t.slot!, (perSlot.get(t.slot!) ?? 0) + 1);
    for (const [slot, n] of perSlot) if (n !== tradeCount.get(slot)) seen.violations.push(`slot ${slot}: ${n} of ${tradeCount.get(slot)} trades`);
  }
  const newest = [fees[0]?.slot, timings[0]?.slot];
  if (newest[0] !== newest[1]) seen.violations.push(`newest slot: priorityfee::block ${newest[0]}, ingestion ${newest[1]}`);
  // the window in progress: as of the newest published block, over the published blocks since its start
  const feeWindow = feeWindows[0];
  if (!feeWindow) return void (fees.length && seen.violations.push(`no fee window, ${fees.length} blocks`));
  if (feeWindow.timestamp !== fees[0]?.timestamp) seen.violations.push(`fee window as of ${feeWindow.timestamp}, newest block ${fees[0]?.timestamp}`);
  const since = Date.parse(feeWindow.window_start!);
  const inWindow = fees.filter((f) => Date.parse(f.timestamp!) >= since).reduce((n, f) => n + Number(f.total_tx_count), 0);
  if (fees.length < 100 && Number(feeWindow.total_tx_count) !== inWindow) {
    seen.violations.push(`fee window ${feeWindow.window_start}: ${feeWindow.total_tx_count} transactions, its published blocks ${inWindow}`);
  }
}

describe('concurrent readers during ingest', () => {
  it('8 readers see whole blocks only, stable ids, and one newest block per batch', async () => {
    const engine = await createEngine({ minSamples: 1 });
    engines.push(engine);
    await engine.ingest({ tokens: generateTokens() });
    const port = () => {
      const { port1, port2 } = new MessageChannel();
      engine.serve(port1);
      const client = connect(port2);
      clients.push(client);
      return client;
    };
    const readers: ((body: unknown) => Promise<ResponseEntry[]>)[] = [];
    for (let i = 0; i < 2; i++) {
      readers.push((b) => engine.request(b), (b) => engine.request(JSON.stringify(b)));
      const c = port();
      readers.push((b) => c.request(b), (b) => c.request(JSON.stringify(b)).then((r) => r));
    }
    expect(readers).toHaveLength(8);

    let done = false;
    const seen: Seen = { queries: 0, violations: [] };
    const loops = readers.map(async (read) => {
      const ids = new Map<string, string>();
      while (!done) {
        check(await read(BATCH), ids, seen);
        await new Promise((resolve) => setImmediate(resolve)); // a reader answered from memory must not starve the ingest
      }
      check(await read(BATCH), ids, seen);
    });
    for (const b of market) await engine.ingest({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
    done = true;
    await Promise.all(loops);

    expect(seen.violations).toEqual([]);
    expect(seen.queries).toBeGreaterThan(market.length);
  }, 120_000);

  it('a recommendation window first asked while blocks are ingested answers as of its batch\'s newest block', async () => {
    const engine = await createEngine({ minSamples: 1 });
    engines.push(engine);
    await engine.ingest({ tokens: generateTokens() });
    const ingest = (b: (typeof market)[number]) => engine.ingest({ blocks: [b.block], transactions: b.transactions, trades: b.trades });
    for (const b of market.slice(0, 20)) await ingest(b);
    const violations: string[] = [];
    // each window asked once, its first answer racing the ingest of the blocks after the 20th
    const windows = ['1s', '10s', '30s', '1m', '3m', '5m', '15m'];
    const asked = windows.map(async (window, k) => {
      await new Promise((resolve) => setTimeout(resolve, 3 * k));
      const reply = await engine.request([
        { jsonrpc: '2.0', id: 1, method: 'chain::priorityfee::block', params: { limit: 3 } },
        { jsonrpc: '2.0', id: 2, method: 'chain::priorityfee::recommendation', params: { window, limit: 3 } },
      ]);
      const [blocks, points] = reply.map((e) => (e as { result: Record<string, string>[] }).result);
      const [blockTimes, pointTimes] = [blocks!.map((b) => b.timestamp), points!.map((p) => p.timestamp)];
      if (JSON.stringify(blockTimes) !== JSON.stringify(pointTimes)) violations.push(`${window}: points at ${pointTimes}, newest blocks at ${blockTimes}`);
    });
    for (const b of market.slice(20)) await ingest(b);
    await Promise.all(asked);
    expect(violations).toEqual([]);
  }, 60_000);
});
