/**
 * Regression tests for the engine defects the oracle found: a Float4 needing 9 significant digits
 * was written with its float64 digits, and a null Uint4 read back from the store became 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/index.node.js';
import { encodeFloat32 } from '../../src/schema/encode.js';
import { base58 } from './base58.js';
import { wireF32, wireTime } from './format.js';

describe('defects the oracle found', () => {
  it('Float4: a float32 that needs 9 significant digits is written with 9 digits', () => {
    expect(wireF32(0.121212125)).toBe('0.121212125');
    expect(encodeFloat32(0.121212125)).toBe('0.121212125');
  });

  let engine: Engine;
  const t0 = BigInt(Date.parse('2024-03-14T00:00:00Z')) * 1_000_000n;
  const tx = (slot: bigint, price: bigint) => ({
    slot, index: 0, signature: `sig${slot}`, signer: base58(new Uint8Array(32).fill(7)), program: base58(new Uint8Array(32).fill(9)),
    is_vote: false, failed: false, compute_unit_price: price, compute_unit_limit: 200_000, compute_units_consumed: 1_000n,
  });
  beforeAll(async () => {
    engine = await createEngine();
    // a block without fee-paying transactions, then one with
    await engine.ingest({ blocks: [{ slot: 10n, timestamp: t0 }], transactions: [tx(10n, 0n)] });
    await engine.ingest({ blocks: [{ slot: 11n, timestamp: t0 + 2_000_000_000n }], transactions: [tx(11n, 500n)] });
  });
  afterAll(() => engine?.close());

  it('Uint4 null read back from the store: an as-of recommendation without fee-paying transactions has T_cu_limit null', async () => {
    const ask = async (params: Record<string, unknown>) => {
      const [entry] = (await engine.request({ jsonrpc: '2.0', id: 1, method: 'chain::priorityfee::recommendation', params })) as {
        result: Record<string, unknown>[];
      }[];
      return entry!.result;
    };
    const live = await ask({ window: '1s', limit: 5 });
    expect(live[1]!.min_cu_limit).toBeNull(); // the live answer is right
    const asOf = await ask({ window: '1s', limit: 5, at: wireTime(t0 + 1n) });
    expect(asOf[0]!.min_price).toBeNull();
    expect(asOf[0]!.min_cu_limit).toBeNull();
  });
});
