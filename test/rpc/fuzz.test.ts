/**
 * The bounded fuzz campaign (fuzz/): 2,000 generated bodies per transport (local object, local
 * text, MessagePort structured clone, MessagePort text), seeded, sent up to 8 at a time. No body may
 * crash, hang, be answered to another request, get -32603, a malformed or an oversized reply.
 * `npm run fuzz -- --cases 100000` is the long run (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { failures, runCampaign } from '../../fuzz/campaign.js';

describe('fuzzed envelopes on every transport', () => {
  it('2,000 bodies per transport: no crash, hang, misrouted reply, -32603, malformed or oversized reply', async () => {
    const figures = await runCampaign({ cases: 2_000, seed: 20_261_125 });
    for (const f of figures) {
      expect(f.cases).toBe(2_000);
      expect(failures(f), `${f.transport}: ${JSON.stringify(f.verdicts)} ${JSON.stringify(f.examples)}`).toBe(0);
      // the campaign reaches the methods: many bodies are answered with results, many with each error
      expect(f.verdicts.ok).toBeGreaterThan(1_000);
      for (const code of ['-32600', '-32601', '-32602']) expect(f.codes[code]).toBeGreaterThan(100);
    }
    // text transports also get text that is not JSON
    for (const f of figures.filter((x) => x.transport.endsWith('-text'))) expect(f.codes['-32700']).toBeGreaterThan(50);
  }, 120_000);
});
