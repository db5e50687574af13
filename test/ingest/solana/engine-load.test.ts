/**
 * Raw getBlock files through engine.load, like any other dump (real mainnet blocks, see
 * test/fixtures/real/PROVENANCE.md and the PROVENANCE.md of more-blocks/ and parsed-blocks/). Every
 * encoding of one block (json, base64, jsonParsed) must give identical answers to every
 * chain::priorityfee method and to chain::market::trades and chain::market::block; the block's fee
 * record must match what the raw entries say (meta.fee, signatures, compute budget instructions).
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/index.node.js';
import { REAL_DATA } from '../../helpers/real-data.js';
import { chargedSignatures, computeBudgetRequests, isSimpleVote, loadBlock, totalFees } from './raw-blocks.js';

/** Every answer compared between encodings, over one file (copied under `name`, which may carry the slot). */
async function answers(file: string, name = basename(file)) {
  const dir = mkdtempSync(join(tmpdir(), 'chainlens-raw-'));
  copyFileSync(join(REAL_DATA, file), join(dir, name));
  const engine = await createEngine();
  try {
    const report = await engine.load(dir);
    const results = {
      blockFees: await engine.call('chain::priorityfee::block', {}),
      fee1m: await engine.call('chain::priorityfee::fee', { window: '1m' }),
      fee1h: await engine.call('chain::priorityfee::fee', { window: '1h' }),
      recommendation: await engine.call('chain::priorityfee::recommendation', { window: '1m' }),
      topTxs: await engine.call('chain::priorityfee::top_txs', { window: '5m', limit: 1000 }),
      trades: await engine.call('chain::market::trades', { limit: 1000 }),
      marketBlocks: await engine.call('chain::market::block', { limit: 1000 }),
    };
    return { report, results };
  } finally {
    await engine.close();
  }
}

/** The block's fee figures computed from its raw entries (json or jsonParsed form), without the decoder. */
function expectedBlockFees(twinPath: string) {
  const { raw } = loadBlock(twinPath);
  const signatures = raw.transactions.reduce((n, t) => n + chargedSignatures(t), 0);
  const nonVote = raw.transactions.filter((t) => !isSimpleVote(t));
  const priced = nonVote.filter((t) => (computeBudgetRequests(t).price ?? 0n) > 0n).length;
  // a sum with an unknown term (no meta.computeUnitsConsumed before RPC v1.10) is unknown
  const consumed = nonVote.every((t) => t.meta.computeUnitsConsumed !== undefined)
    ? String(nonVote.reduce((sum, t) => sum + BigInt(t.meta.computeUnitsConsumed!), 0n))
    : null;
  return {
    total_tx_count: String(raw.transactions.length),
    tx_count: String(priced),
    no_priority_tx_count: String(nonVote.length - priced),
    total_priority_fees: String(totalFees(raw) - 5000n * BigInt(signatures)),
    total_compute_units: consumed,
  };
}

describe('raw getBlock files through engine.load', () => {
  it('block 254170887: both encodings answer identically, with the known counts', async () => {
    const json = await answers('blocks/block-254170887.json-encoding.json', 'block-254170887.json');
    const base64 = await answers('blocks/block-254170887.base64.json');
    expect(json.report.rejected).toBe(0);
    expect(json.results).toEqual(base64.results);
    expect(json.results.blockFees[0]).toMatchObject({
      slot: '254170887', tx_count: '409', no_priority_tx_count: '35', total_tx_count: '602', total_priority_fees: '30778246',
      timestamp: '2024-03-14T18:41:18.000000000Z',
    });
    expect(json.results.blockFees[0]).toMatchObject(expectedBlockFees('blocks/block-254170887.json-encoding.json'));
  });

  it('the 2025 block: both encodings answer identically; the slot comes from the parent with a warning', async () => {
    const json = await answers('blocks/sava-block.json-encoding.json', 'sava-block.json');
    const base64 = await answers('blocks/sava-block.base64.json');
    expect(json.results).toEqual(base64.results);
    expect(json.report.warnings.join('\n')).toMatch(/parent/i);
    expect(json.results.blockFees[0]).toMatchObject({ slot: '361774429', total_tx_count: '1790', tx_count: '551' });
    expect(json.results.blockFees[0]).toMatchObject(expectedBlockFees('blocks/sava-block.json-encoding.json'));
  });

  // The blocks of more-blocks/ and parsed-blocks/ that come in several encodings; the first is the
  // json or jsonParsed one the raw expectations read.
  const MORE = [
    { slot: '100356971', files: ['more-blocks/block-100356971.json-encoding.json', 'more-blocks/block-100356971.base64.json'] },
    { slot: '285000037', files: ['more-blocks/block-285000037.json-encoding.json', 'more-blocks/block-285000037.base64.json'] },
    { slot: '332254855', files: ['more-blocks/block-332254855.json-encoding.json', 'more-blocks/block-332254855.base64.json'] },
    { slot: '332254908', files: ['more-blocks/block-332254908.json-encoding.json', 'more-blocks/block-332254908.base64.json'] },
    { slot: '110130000', files: ['parsed-blocks/block-110130000.jsonparsed.json', 'parsed-blocks/block-110130000.json-encoding.json'] },
    { slot: '355825332', files: ['parsed-blocks/block-355825332.jsonparsed.json', 'parsed-blocks/block-355825332.base64.json'] },
  ];

  it.each(MORE)('block $slot: every encoding answers identically, with the fee figures of its raw entries', async ({ slot, files }) => {
    const [first, ...others] = await Promise.all(files.map((file) => answers(file)));
    expect(first.report.rejected).toBe(0);
    for (const other of others) expect(other.results).toEqual(first.results);
    expect(first.results.blockFees).toHaveLength(1);
    expect(first.results.blockFees[0]).toMatchObject({ slot, ...expectedBlockFees(files[0]) });
    expect(first.results.trades).toHaveLength(loadBlock(files[0]).decoded.trades.length);
    const known = loadBlock(files[0]).raw.transactions.every((t) => t.meta.computeUnitsConsumed !== undefined);
    const [point] = first.results.recommendation;
    if (known) {
      expect(first.results.blockFees[0].cu_utilization_pct).not.toBeNull();
      expect([point.avg_cu_per_tx, point.median_block_fill_pct, point.saturated_block_share_pct]).not.toContain(null);
    } else {
      // 2021: no transaction knows its consumed compute units
      expect(first.results.blockFees[0]).toMatchObject({ total_compute_units: null, cu_utilization_pct: null });
      expect(point).toMatchObject({ avg_cu_per_tx: null, median_block_fill_pct: null, saturated_block_share_pct: null });
    }
  });

  it('block 110360000 (jsonParsed only) has the fee figures of its raw entries', async () => {
    const path = 'parsed-blocks/block-110360000.jsonparsed.json';
    const { results } = await answers(path);
    expect(results.blockFees[0]).toMatchObject({ slot: '110360000', ...expectedBlockFees(path), total_compute_units: null, cu_utilization_pct: null });
    expect(results.recommendation[0]).toMatchObject({ avg_cu_per_tx: null, median_block_fill_pct: null, saturated_block_share_pct: null });
  });
});
