/**
 * Raw getBlock files through engine.load, like any other dump (real mainnet blocks, see
 * test/fixtures/real/PROVENANCE.md: block 254170887 from helius-labs/photon and the 2025 block from
 * sava-software/sava, both Apache-2.0). The json and base64 files of one block must give identical
 * answers to every chain::priorityfee method and to chain::market::trades.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/index.node.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const BLOCKS = `${REAL_DATA}blocks`;
const QUERIES = [
  ['chain::priorityfee::block', {}],
  ['chain::priorityfee::fee', { window: '1m' }],
  ['chain::priorityfee::fee', { window: '1h' }],
  ['chain::priorityfee::recommendation', { window: '1m' }],
  ['chain::priorityfee::top_txs', { window: '5m', limit: 1000 }],
  ['chain::market::trades', { limit: 1000 }],
] as const;

/** Every answer of QUERIES over one file (copied under `name`, which may carry the slot). */
async function answers(file: string, name: string) {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-raw-'));
  copyFileSync(join(BLOCKS, file), join(dir, name));
  const engine = await createEngine();
  try {
    const report = await engine.load(dir);
    const results = [];
    for (const [method, params] of QUERIES) results.push(await engine.call(method, params));
    return { report, results };
  } finally {
    await engine.close();
  }
}

describe('raw getBlock files through engine.load', () => {
  it('block 254170887: both encodings answer identically, with the known counts', async () => {
    const json = await answers('block-254170887.json-encoding.json', 'block-254170887.json');
    const base64 = await answers('block-254170887.base64.json', 'block-254170887.base64.json');
    expect(json.report.rejected).toBe(0);
    expect(json.results).toEqual(base64.results);
    const [block] = json.results[0] as Record<string, string>[];
    expect(block).toMatchObject({
      slot: '254170887', tx_count: '409', no_priority_tx_count: '35', total_tx_count: '602', total_priority_fees: '30778246',
      timestamp: '2024-03-14T18:41:18.000000000Z',
    });
  });

  it('the 2025 block: both encodings answer identically; the slot comes from the parent with a warning', async () => {
    const json = await answers('sava-block.json-encoding.json', 'sava-block.json');
    const base64 = await answers('sava-block.base64.json', 'sava-block.base64.json');
    expect(json.results).toEqual(base64.results);
    expect(json.report.warnings.join('\n')).toMatch(/parent/i);
    const [block] = json.results[0] as Record<string, string>[];
    expect(block).toMatchObject({ slot: '361774429', total_tx_count: '1790', tx_count: '551' });
  });
});
