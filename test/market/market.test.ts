/**
 * chain::market::block, ohlcv, volume, vwap and twap on seeded synthetic trades, against the
 * brute-force oracle (oracle.ts): every record of every pair compared as wire JSON, bit for bit;
 * base/quote filters; ohlcv from/to; as-of equals live (an engine fed only the blocks before `at`
 * answers live exactly what the full engine answers as of `at`); every field present with its
 * wire type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LENS_MINT, PUPS_MINT, SOL_MINT, USDC_MINT } from '../../src/generate/constants.js';
import { generateBlocks, type GeneratedBlock } from '../../src/generate/market.js';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeTimestamp } from '../../src/schema/encode.js';
import { BlockTrades, Candle, Twap, Volume, Vwap, type RecordSchema } from '../../src/schema/records.js';
import type { WireType } from '../../src/schema/wire.js';
import { blockRecord, candleRecords, oracleBlocks, trailingRecords } from './oracle.js';
import { callAny } from '../helpers/call.js';

type Wire = Record<string, unknown>;

// 5 minutes: ~1800 pair-blocks, so the block method answers older slots from the store
const market = [...generateBlocks({ minutes: 5, txPerBlock: 12, seed: 'market' })];
const trades = market.flatMap((b) => b.trades);
const blocks = oracleBlocks(trades);
const PAIRS = [[SOL_MINT, USDC_MINT], [LENS_MINT, USDC_MINT], [PUPS_MINT, SOL_MINT]] as const;
const pairBlocks = (base: string, quote: string) => blocks.filter((x) => x.base === base && x.quote === quote);
const newestFirst = <T>(list: T[]) => [...list].reverse();
const WINDOWS = ['1s', '10s', '1m', '5m', '24h'];

async function engineWith(part: GeneratedBlock[], chunk = 45): Promise<Engine> {
  const engine = await createEngine();
  for (let i = 0; i < part.length; i += chunk) {
    const slice = part.slice(i, i + chunk);
    await engine.ingest({ blocks: slice.map((b) => b.block), trades: slice.flatMap((b) => b.trades) });
  }
  return engine;
}

const WIRE_PATTERNS: Record<WireType, RegExp> = {
  id: /^$/, // checked separately: a safe integer
  Utf8: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  Uint1: /^\d+$/,
  Uint4: /^\d+$/,
  Uint8: /^\d+$/,
  Int8: /^-?\d+$/,
  Float4: /^-?\d+(\.\d+)?$/,
  Float8: /^-?\d+(\.\d+)?$/,
  DateTime: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/,
  Duration: /^PT(\d+H)?(\d+M)?(\d+(\.\d+)?S)?$/,
  Boolean: /^$/,
};

/** Every field of the schema present, in order, with its wire type; floats may be null only where USD is unknown. */
function expectWireTypes(schema: RecordSchema, records: Wire[]) {
  for (const r of records) {
    expect(Object.keys(r)).toEqual(schema.fields.map(([name]) => name));
    for (const [name, type] of schema.fields) {
      const value = r[name];
      if (type === 'id') expect(Number.isSafeInteger(value), name).toBe(true);
      else if (value === null) expect(/usd|ratio/.test(name), `${schema.name}.${name} is null`).toBe(true);
      else expect(value, `${schema.name}.${name}`).toMatch(WIRE_PATTERNS[type]);
    }
  }
}

describe('market methods against the brute-force oracle', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await engineWith(market);
  });
  afterAll(() => engine.close());

  it('has three pairs, SOL/USDC routing PUPS/SOL to USD', () => {
    expect(new Set(blocks.map((x) => `${x.base}/${x.quote}`)).size).toBe(3);
    expect(blocks.length).toBeGreaterThan(1000);
    expect(pairBlocks(PUPS_MINT, SOL_MINT).filter((x) => x.usd > 0).length).toBeGreaterThan(100);
  });

  it('computes every block record, newest first, from memory and from the store', async () => {
    for (const [base, quote] of PAIRS) {
      const expected = newestFirst(pairBlocks(base, quote)).map(blockRecord);
      const got = (await engine.call('chain::market::block', { base, quote, limit: 1000 })) as Wire[];
      expect(got).toEqual(expected.slice(0, 1000));
      expectWireTypes(BlockTrades, got);
    }
    const all = (await engine.call('chain::market::block', { limit: 1000 })) as Wire[];
    const order = [...blocks].sort((x, y) => (x.slot !== y.slot ? (x.slot > y.slot ? -1 : 1) : x.base < y.base ? -1 : x.base > y.base ? 1 : x.quote < y.quote ? -1 : 1));
    expect(all).toEqual(order.slice(0, 1000).map(blockRecord));
    expect(await engine.call('chain::market::block', {})).toEqual(all.slice(0, 100));
    // as of a time whose blocks are older than the newest 1000 records: the store answers
    const at = market[100]!.block.timestamp;
    const old = (await engine.call('chain::market::block', { limit: 50, at: encodeTimestamp(at) })) as Wire[];
    expect(old).toEqual(order.filter((x) => x.time < at).slice(0, 50).map(blockRecord));
  });

  for (const window of WINDOWS) {
    it(`computes every ${window} candle`, async () => {
      for (const [base, quote] of PAIRS) {
        const expected = newestFirst(candleRecords(pairBlocks(base, quote), window));
        const got = (await callAny(engine, 'chain::market::ohlcv', { base, quote, window })) as Wire[];
        expect(got).toEqual(expected);
        expectWireTypes(Candle, got);
      }
    });

    it(`computes every ${window} volume, vwap and twap point`, async () => {
      for (const [base, quote] of PAIRS) {
        const expected = trailingRecords(pairBlocks(base, quote), window);
        for (const [method, schema, records] of [
          ['volume', Volume, expected.volume], ['vwap', Vwap, expected.vwap], ['twap', Twap, expected.twap],
        ] as const) {
          const got = (await callAny(engine, `chain::market::${method}`, { base, quote, window, limit: 1000 })) as Wire[];
          expect(got, `${method} ${window}`).toEqual(newestFirst(records).slice(0, 1000));
          expectWireTypes(schema, got);
        }
      }
    });
  }

  it('filters pairs: no base = every pair, base alone = that base, quote alone = that quote', async () => {
    const pairsOf = (records: Wire[]) => [...new Set(records.map((r) => `${r.base}/${r.quote}`))].sort();
    const all = (await engine.call('chain::market::vwap', { window: '1m', limit: 1000 })) as Wire[];
    expect(pairsOf(all)).toEqual(PAIRS.map(([b, q]) => `${b}/${q}`).sort());
    // newest first across pairs: time, then slot descending, then base and quote
    const keys = all.map((r) => `${r.timestamp}|${r.slot}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(pairsOf((await engine.call('chain::market::volume', { window: '1m', base: SOL_MINT, limit: 1000 })) as Wire[])).toEqual([`${SOL_MINT}/${USDC_MINT}`]);
    expect(pairsOf((await engine.call('chain::market::twap', { window: '1m', quote: USDC_MINT, limit: 1000 })) as Wire[]))
      .toEqual([`${LENS_MINT}/${USDC_MINT}`, `${SOL_MINT}/${USDC_MINT}`].sort());
    expect(pairsOf((await engine.call('chain::market::ohlcv', { window: '1m', base: PUPS_MINT })) as Wire[])).toEqual([`${PUPS_MINT}/${SOL_MINT}`]);
    expect(pairsOf((await engine.call('chain::market::block', { base: LENS_MINT, limit: 1000 })) as Wire[])).toEqual([`${LENS_MINT}/${USDC_MINT}`]);
    expect(await engine.call('chain::market::vwap', { window: '1m', base: SOL_MINT, quote: SOL_MINT })).toEqual([]);
    // limit counts data points after filtering and merging
    const candles = (await engine.call('chain::market::ohlcv', { window: '10s', limit: 7 })) as Wire[];
    expect(candles).toHaveLength(7);
    const every = PAIRS.flatMap(([b, q]) => candleRecords(pairBlocks(b, q), '10s'));
    every.sort((x, y) => (x.timestamp !== y.timestamp ? (String(x.timestamp) > String(y.timestamp) ? -1 : 1) : String(x.base) < String(y.base) ? -1 : 1));
    expect(candles).toEqual(every.slice(0, 7));
  });

  it('ohlcv from (inclusive) and to (exclusive), Unix seconds or ISO-8601', async () => {
    const [base, quote] = PAIRS[0];
    const all = newestFirst(candleRecords(pairBlocks(base, quote), '10s'));
    const starts = all.map((c) => String(c.timestamp));
    const seconds = (iso: string) => Date.parse(iso) / 1000;
    const from = starts[12]!;
    const to = starts[3]!;
    const between = (await engine.call('chain::market::ohlcv', { base, quote, window: '10s', from, to: seconds(to) })) as Wire[];
    expect(between).toEqual(all.slice(4, 13));
    const limited = await engine.call('chain::market::ohlcv', { base, quote, window: '10s', from: String(seconds(from)), to, limit: 2 });
    expect(limited).toEqual(all.slice(4, 6));
    // a from inside a candle excludes it (filter on open time), a to inside one includes it
    const inside = await engine.call('chain::market::ohlcv', { base, quote, window: '10s', from: seconds(from) + 1, to: seconds(to) + 1 });
    expect(inside).toEqual(all.slice(3, 12));
    expect(await engine.call('chain::market::ohlcv', { base, quote, window: '10s', from: to, to })).toEqual([]);
  });

  describe('as of a time equals what a live engine answered then', () => {
    const time = (i: number) => market[i]!.block.timestamp;
    const cuts = [
      time(400) + 1n, // just after a block, inside every candle size from 10s up
      time(600), // exactly at a block's time: excludes it
      time(280) + 150_000_000n, // between two blocks
    ];
    for (const at of cuts) {
      it(`at ${encodeTimestamp(at)}`, async () => {
        const live = await engineWith(market.filter((b) => b.block.timestamp < at), 60);
        try {
          const queries: [string, Record<string, unknown>][] = [['chain::market::block', { limit: 300 }]];
          for (const window of ['1s', '10s', '1m', '5m', '24h']) {
            queries.push(['chain::market::ohlcv', { window }]);
            for (const method of ['volume', 'vwap', 'twap']) {
              queries.push([`chain::market::${method}`, { window, limit: 400 }]);
              queries.push([`chain::market::${method}`, { window, limit: 1, base: PUPS_MINT }]);
            }
          }
          for (const [method, params] of queries) {
            const asOf = await engine.call(method, { ...params, at: encodeTimestamp(at) });
            expect(asOf.length, method).toBeGreaterThan(0);
            expect(asOf, `${method} ${JSON.stringify(params)}`).toEqual(await live.call(method, params));
          }
        } finally {
          await live.close();
        }
      });
    }
  });
});

describe('market methods over an empty engine', () => {
  it('answers []', async () => {
    const engine = await createEngine();
    try {
      expect(await engine.call('chain::market::block', {})).toEqual([]);
      expect(await engine.call('chain::market::ohlcv', { window: '1m' })).toEqual([]);
      for (const method of ['volume', 'vwap', 'twap']) expect(await callAny(engine, `chain::market::${method}`, { window: '1h' })).toEqual([]);
      await engine.ingest({ blocks: [market[0]!.block] });
      expect(await engine.call('chain::market::vwap', { window: '1h' })).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

