/**
 * Golden data-point ids: literal ids of one key of every record family, as the engine's recordId
 * gives them and as the oracle's independent implementation of the documented rule
 * (docs/semantics.md, Encoding) gives them. These are golden values: an id that changes breaks
 * every stored id and every client that keyed on one, so a change must be deliberate.
 */
import { describe, expect, it } from 'vitest';
import { recordId } from '../../src/schema/ids.js';
import { pointId } from '../oracle/ids.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const USDT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

const GOLDEN: [(string | number | bigint)[], number][] = [
  [['chain::market::token', '3eGyGiu3gzqhptUZ8sdd2Lhh4tbPUeF3MNYUNas4f6s8'], 4183472728418968],
  [['chain::priorityfee::block', 250000554n], 6587911452928160],
  [['chain::priorityfee::fee', '5m', 1710374400000000000n], 4661629335635606],
  [['chain::priorityfee::recommendation', '30s', 250000554n], 3607530541201877],
  [['chain::priorityfee::top_txs', '5m', '2GCKf3jCaK6mujdJcgvfEbdFsHKWGPDMQi6ZYiBvsSj6LFXaL6xUCuNJpm94PHQLrQVNbupokUgoCtfaTrQN4Y1S'], 645316654047768],
  [['chain::market::block', SOL, USDT, 250000554n], 7040956847272228],
  [['chain::market::ohlcv', SOL, USDC, '1h', 1710381600000000000n], 3093701842343261],
  [['chain::market::volume', SOL, USDC, '12h', 250000550n], 8448162520773327],
  [['chain::market::vwap', SOL, USDC, '30m', 250000550n], 7686318339308603],
  [['chain::market::twap', SOL, USDC, '2h', 250000550n], 5055996962284039],
  [['chain::market::trades', '2eJyBx3gSUJuoe8A1ioiTjwSVXAydSwGaiDmrc44EbKHYu3cxdCR2FtQgFVb382hbHAwkEDsvj9umq6nHKgoB9qi', 0], 5667371153461018],
  [['chain::market::ingestion', 250000554n], 4196805145963679],
  // code units above 0x7f, an empty part and the separator inside a part
  [['', 'é|ü', 'x'], 5953231523955394],
];

const CASES = GOLDEN.map(([key, id]) => [key.map(String).join('|'), key, id] as const);

describe('data-point ids (golden values)', () => {
  it.each(CASES)('%s has its golden id in the engine', (_, key, id) => {
    expect(recordId(...key)).toBe(id);
  });

  it.each(CASES)('%s has its golden id by the documented rule (independent implementation)', (_, key, id) => {
    expect(pointId(...key)).toBe(id);
  });

  it('ids are safe integers and differ by window, pair order and slot', () => {
    const ids = [
      recordId('chain::market::vwap', SOL, USDC, '30m', 1n), recordId('chain::market::vwap', SOL, USDC, '1h', 1n),
      recordId('chain::market::vwap', USDC, SOL, '30m', 1n), recordId('chain::market::vwap', SOL, USDC, '30m', 2n),
    ];
    for (const id of ids) expect(Number.isSafeInteger(id) && id >= 0).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
