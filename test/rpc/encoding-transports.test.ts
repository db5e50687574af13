/**
 * Wire encoding over every transport: u64 above 2^53, floats below 1e-6, nanosecond timestamps and
 * durations arrive exactly the same over a local call, a MessageChannel and a worker port. The
 * data is a hand-written NDJSON dump, so the expected strings come from the text, not the code.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSPORTS, type Transport } from '../helpers/transports.js';

const BASE = 'So11111111111111111111111111111111111111112';
const QUOTE = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const SIGNER = 'BUbpYVnAqCUD6dZGSMxW48PzcY9UmHHcdo2hV465kbb2';
const SLOT = '254170887';
const TIME_NS = '1710441678123456789'; // 2024-03-14T18:41:18.123456789Z

function writeDump(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-encoding-'));
  writeFileSync(join(dir, 'blocks.ndjson'), `{"slot": ${SLOT}, "timestamp": ${TIME_NS}}\n`);
  // u64 above 2^53 written as raw JSON integers: the reader must not round them
  const trades = [
    `{"signature":"sig-big","signer":"${SIGNER}","slot":${SLOT},"tx_index":3,"fill_index":0,"timestamp":${TIME_NS},` +
      `"base":"${BASE}","quote":"${QUOTE}","base_amount":18446744073709551615,"quote_amount":9007199254740993,` +
      `"base_decimals":9,"quote_decimals":6,"is_buy":true}`,
    `{"signature":"sig-tiny","signer":"${SIGNER}","slot":${SLOT},"tx_index":4,"fill_index":0,"timestamp":${TIME_NS},` +
      `"base":"${BASE}","quote":"${QUOTE}","base_amount":1,"quote_amount":1,"base_decimals":9,"quote_decimals":6,"is_buy":false}`,
  ];
  writeFileSync(join(dir, 'trades.ndjson'), trades.join('\n') + '\n');
  return dir;
}

let dir: string;
beforeAll(() => {
  dir = writeDump();
});

for (const [transportName, open] of Object.entries(TRANSPORTS)) {
  describe(`encoding over ${transportName}`, () => {
    let t: Transport;
    beforeAll(async () => {
      t = await open({ data: [dir] });
    });
    afterAll(() => t.close());

    it('keeps u64 exact, writes tiny floats without exponent and timestamps with 9 digits', async () => {
      const [tiny, big] = (await t.call('chain::market::trades', {})) as Record<string, unknown>[];
      expect(big).toMatchObject({
        signature: 'sig-big',
        slot: SLOT,
        base_amount: '18446744073709551615',
        quote_amount: '9007199254740993',
        base_volume: '18446744073.709553', // nearest float to 18446744073.709551615
        timestamp: '2024-03-14T18:41:18.123456789Z',
        is_buy: true,
      });
      // 1 raw unit with 9 and 6 decimals: 1e-9 base, 1e-6 quote, price 1000
      expect(tiny).toMatchObject({ base_volume: '0.000000001', quote_volume: '0.000001', price: '1000', is_buy: false });
    });

    it('writes durations as ISO-8601', async () => {
      const [timing] = (await t.call('chain::market::ingestion', {})) as Record<string, string>[];
      expect(timing.slot).toBe(SLOT);
      expect(timing.timestamp).toBe('2024-03-14T18:41:18.123456789Z');
      expect(timing.took).toMatch(/^PT(\d+H)?(\d+M)?(\d+(\.\d{1,9})?S)?$/);
      expect(timing.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(timing.records).toBe('3');
    });
  });
}
