/**
 * Live answers over many pairs (chain::market::block, ohlcv, volume, vwap, twap without both mints) walk
 * the newest blocks' traded pairs (src/market/recent-blocks.ts) rather than merging every pair's
 * series; as of a time they merge. Both must give the same wire records in the same order: the
 * live answer equals the same query as of just after the newest block, in a wide market, under
 * every filter and limit, once the kept blocks no longer reach back to the first (the walk then
 * hands over to the merge), and under retention; and the keys and order of the answers are those
 * the generated trades give.
 */
import { describe, expect, it } from 'vitest';
import { SOL_MINT, USDC_MINT, USDT_MINT } from '../../src/generate/constants.js';
import { generateBlocks, generateTokens, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { parseIsoTimestamp } from '../../src/schema/time.js';

const rows = (blocks: readonly GeneratedBlock[]) => ({
  blocks: blocks.map((b) => b.block), transactions: blocks.flatMap((b) => b.transactions), trades: blocks.flatMap((b) => b.trades),
});

/** Every method over every filter and limit (candles also in a range of opening times); `rare` is a base that trades seldom. */
function queries(rare: string, market: readonly GeneratedBlock[]): [string, Record<string, unknown>][] {
  const timeAt = (share: number) => encodeTimestamp(market[Math.floor(share * (market.length - 1))]!.block.timestamp);
  const ranges = [{}, { from: timeAt(0.5) }, { to: timeAt(0.9) }, { from: timeAt(0.2), to: timeAt(0.6) }];
  const filters = [{}, { base: SOL_MINT }, { quote: USDC_MINT }, { quote: USDT_MINT }, { base: rare }, { quote: rare }];
  const out: [string, Record<string, unknown>][] = [];
  for (const filter of filters) {
    for (const limit of [1, 7, 1000]) {
      out.push(['chain::market::block', { ...filter, limit }]);
      for (const window of ['1m', '5m']) for (const range of ranges) out.push(['chain::market::ohlcv', { ...filter, ...range, window, limit }]);
      for (const method of ['chain::market::volume', 'chain::market::vwap', 'chain::market::twap']) {
        for (const window of ['1m', '5m']) out.push([method, { ...filter, window, limit }]);
      }
    }
  }
  return out;
}

/**
 * The keys of the newest `limit` block aggregates and 1m candles over every pair, straight from the
 * generated trades (an independent reference of the order: time descending, then base, then quote).
 */
function expectedKeys(market: readonly GeneratedBlock[], limit: number): { blocks: string[]; candles: string[] } {
  const newestFirst = (keys: Set<string>) => [...keys].map((k) => k.split(' ')).sort((x, y) => {
    const [tx, bx, qx] = x as [string, string, string];
    const [ty, by, qy] = y as [string, string, string];
    if (tx !== ty) return BigInt(ty) > BigInt(tx) ? 1 : -1;
    return bx !== by ? (bx < by ? -1 : 1) : qx < qy ? -1 : qx > qy ? 1 : 0;
  }).slice(0, limit).map((k) => k.join(' '));
  const trades = market.flatMap((b) => b.trades);
  const minute = 60_000_000_000n;
  return {
    blocks: newestFirst(new Set(trades.map((t) => `${t.slot} ${t.base} ${t.quote}`))),
    candles: newestFirst(new Set(trades.map((t) => `${(t.timestamp / minute) * minute} ${t.base} ${t.quote}`))),
  };
}

/** The pair traded least often: its base. */
function rarestBase(market: readonly GeneratedBlock[]): string {
  const counts = new Map<string, number>();
  for (const trade of market.flatMap((b) => b.trades)) counts.set(trade.base, (counts.get(trade.base) ?? 0) + 1);
  return [...counts].sort((a, b) => a[1] - b[1])[0]![0];
}

async function expectLiveEqualsAsOf(engine: Engine, market: readonly GeneratedBlock[], rare: string): Promise<number> {
  const at = encodeTimestamp(market.at(-1)!.block.timestamp + 1n);
  let answered = 0;
  for (const [method, params] of queries(rare, market)) {
    const live = await engine.call(method, params);
    expect(live, `${method} ${JSON.stringify(params)}`).toEqual(await engine.call(method, { ...params, at }));
    answered += live.length;
    if (live.length > 1) expect(new Set(live.map((r) => (r as { id: number }).id)).size).toBe(live.length);
  }
  return answered;
}

const wide = { pairs: 40, tokens: 20, swapsPerSecond: 12, txPerBlock: 4 } as const;

describe('live answers over many pairs equal the merged answers as of the newest block', () => {
  it('in a wide market, after chunks and single blocks, and past the blocks the walk keeps', async () => {
    // 30 minutes: about 2,240 blocks with trades, past the 2,000 the walk may keep, so that it hands over to the merge
    const market = [...generateBlocks({ minutes: 30, seed: 'many pairs', ...wide })];
    expect(market.filter((b) => b.trades.length > 0).length).toBeGreaterThan(2000);
    const rare = rarestBase(market);
    const engine = await createEngine();
    try {
      await engine.ingest({ tokens: generateTokens() });
      await engine.ingest(rows(market.slice(0, 300)));
      expect(await expectLiveEqualsAsOf(engine, market.slice(0, 300), rare)).toBeGreaterThan(0);
      for (let i = 300; i < market.length - 3; i += 400) await engine.ingest(rows(market.slice(i, Math.min(i + 400, market.length - 3))));
      for (const block of market.slice(-3)) await engine.ingest(rows([block]));
      expect(await expectLiveEqualsAsOf(engine, market, rare)).toBeGreaterThan(0);
      // and both are what the trades say, in order
      const expected = expectedKeys(market, 1000);
      const blocks = (await engine.call('chain::market::block', { limit: 1000 })) as { slot: string; base: string; quote: string }[];
      expect(blocks.map((r) => `${r.slot} ${r.base} ${r.quote}`)).toEqual(expected.blocks);
      const candles = (await engine.call('chain::market::ohlcv', { window: '1m', limit: 1000 })) as { timestamp: string; base: string; quote: string }[];
      expect(candles.map((r) => `${parseIsoTimestamp(r.timestamp)} ${r.base} ${r.quote}`)).toEqual(expected.candles);
    } finally {
      await engine.close();
    }
  }, 120_000);

  it('under retention: only what is held is listed, live as as of', async () => {
    const market = [...generateBlocks({ minutes: 8, seed: 'many pairs retained', ...wide })];
    const rare = rarestBase(market);
    const engine = await createEngine({ retain: '5m' });
    try {
      await engine.ingest({ tokens: generateTokens() });
      for (let i = 0; i < market.length; i += 250) await engine.ingest(rows(market.slice(i, i + 250)));
      expect(await expectLiveEqualsAsOf(engine, market, rare)).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
