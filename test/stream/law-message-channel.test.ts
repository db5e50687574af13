/**
 * The consistency law of streams (test/stream/law.ts) over the message channel transport: every method's
 * pushes after each block of a replayed seeded dump equal the as-of answers just after that block.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GeneratedBlock } from '../../src/generate/market.js';
import { TRANSPORTS, type Transport } from '../helpers/transports.js';
import { checkLaw, LAW_SUBSCRIPTIONS, lawDump } from './law.js';

describe('streams over message channel', () => {
  let t: Transport;
  let dump: { dir: string; blocks: GeneratedBlock[] };
  beforeAll(async () => {
    dump = await lawDump();
    t = await TRANSPORTS['message channel']!({ options: { minSamples: 10 } });
  });
  afterAll(() => t?.close());

  it('pushes after every block what the query answers as of just after it, for every method', { timeout: 240_000 }, async () => {
    const counts = await checkLaw(t, dump.dir, dump.blocks);
    expect(counts).toHaveLength(LAW_SUBSCRIPTIONS.length);
  });
});
