import { createWriteStream, rmSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readTableFile } from '../../../src/ingest/files/read.js';
import { encodeBase58 } from '../../../src/schema/base58.js';
import { prng, SOL, USDC, tempDir } from './fixtures.js';

const ROWS = 1_000_000;
const BATCH = 65_536;

/** Writes ROWS trades as NDJSON through a write stream (about 370 MB). */
async function writeTrades(path: string): Promise<void> {
  const random = prng(11);
  const keys = Array.from({ length: 64 }, () => encodeBase58(Uint8Array.from({ length: 32 }, () => Math.floor(random() * 256))));
  const out = createWriteStream(path);
  let lines: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const slot = 250_000_000 + Math.floor(i / 100);
    lines.push(`{"signature":"sig-${i}","signer":"${keys[(i * 7) % 64]}","slot":${slot},"tx_index":${i % 100},"fill_index":0,`
      + `"timestamp":${1_710_441_678_000_000_000n + BigInt(i) * 4_000_000n},"base":"${keys[i % 16]}","quote":"${i % 2 ? USDC : SOL}",`
      + `"base_amount":${1 + (i % 1_000_000) * 1000},"quote_amount":${(2n ** 60n + BigInt(i))},"base_decimals":9,"quote_decimals":6,"is_buy":${i % 3 === 0}}\n`);
    if (lines.length === 10_000) {
      if (!out.write(lines.join(''))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      lines = [];
    }
  }
  out.end(lines.join(''));
  await finished(out);
}

describe('streaming', () => {
  it(`reads ${ROWS} NDJSON trades from a path in batches of the configured size`, async () => {
    const dir = tempDir();
    const path = join(dir, 'trades.ndjson');
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    await writeTrades(path);
    const sizes: number[] = [];
    let rows = 0;
    let last: bigint | undefined;
    for await (const batch of readTableFile({ name: 'trades.ndjson', path }, { batchRows: BATCH })) {
      expect(batch.rejections).toEqual([]);
      expect(batch.read).toBe(batch.rows.numRows);
      sizes.push(batch.read);
      rows += batch.rows.numRows;
      last = batch.rows.getChild('quote_amount')!.get(batch.rows.numRows - 1) as bigint;
    }
    const full = Math.floor(ROWS / BATCH);
    expect(sizes).toEqual([...Array(full).fill(BATCH), ROWS - full * BATCH]);
    expect(rows).toBe(ROWS);
    expect(last).toBe(2n ** 60n + BigInt(ROWS - 1));
  }, 300_000);
});
