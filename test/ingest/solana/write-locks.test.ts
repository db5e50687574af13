// The decoder's write-locked and read-only accounts on every real fixture (legacy and v0, with lookup
// tables; json, jsonParsed and base64) against the test's own reference decoder
// (test/helpers/reference-accounts.ts, written from the wire format and agave's rule, no shared code).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeGetBlockFile } from '../../../src/ingest/solana/get-block.js';
import { REAL_DATA } from '../../helpers/real-data.js';
import { referenceAccounts } from '../../helpers/reference-accounts.js';

const FOLDERS = ['blocks', 'blocks/jsonparsed-samples', 'more-blocks', 'parsed-blocks'];
const FILES = FOLDERS.flatMap((folder) =>
  readdirSync(REAL_DATA + folder).filter((name) => name.endsWith('.json')).map((name) => `${folder}/${name}`));

describe('write-locked accounts of the real blocks equal the reference decoder', () => {
  it('covers legacy and v0 transactions with lookup tables in every encoding', () => {
    expect(FILES.filter((f) => f.includes('base64')).length).toBeGreaterThanOrEqual(5);
    expect(FILES.filter((f) => f.includes('jsonparsed')).length).toBeGreaterThanOrEqual(3);
  });

  for (const file of FILES) {
    it(file, () => {
      const text = readFileSync(REAL_DATA + file, 'utf8');
      const expected = referenceAccounts(JSON.parse(text));
      const decoded = decodeGetBlockFile(text, file);
      expect(decoded.rejections).toEqual([]);
      expect(decoded.transactions.length).toBe(expected.length);
      decoded.transactions.forEach((row, i) => {
        expect(row.signature).toBe(expected[i]!.signature);
        expect(row.writable_accounts, row.signature).toEqual(expected[i]!.writable);
        expect(row.readonly_accounts, row.signature).toEqual(expected[i]!.readonly);
      });
    });
  }

  it('the real blocks hold hot accounts: some account is write-locked by many non-vote transactions', () => {
    const text = readFileSync(`${REAL_DATA}blocks/sava-block.base64.json`, 'utf8');
    const counts = new Map<string, number>();
    for (const row of decodeGetBlockFile(text, 'sava-block.base64.json').transactions) {
      if (row.is_vote) continue;
      for (const key of row.writable_accounts!) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const hottest = Math.max(...counts.values());
    expect(hottest).toBeGreaterThan(100);
  });
});
