/**
 * Self-check of the reference account decoder (reference-accounts.ts) on the real fixtures and on hand-made
 * transactions: facts that hold whatever the production decoder does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REAL_DATA } from './real-data.js';
import { base58, RESERVED_ACCOUNT_KEYS, referenceAccounts, type ReferenceAccounts } from './reference-accounts.js';

const FOLDERS = ['blocks', 'blocks/jsonparsed-samples', 'more-blocks', 'parsed-blocks'];
const ENCODING = /\.(base64|json-encoding|jsonparsed)\.json$/;

// Every fixture here is a whole getBlock response (the jsonparsed-samples are one-transaction blocks).
const FILES = FOLDERS.flatMap((folder) =>
  readdirSync(REAL_DATA + folder).filter((name) => name.endsWith('.json')).map((name) => `${folder}/${name}`),
);
const raw = new Map<string, any>(FILES.map((file) => [file, JSON.parse(readFileSync(REAL_DATA + file, 'utf8'))]));
const decoded = new Map<string, ReferenceAccounts[]>(FILES.map((file) => [file, referenceAccounts(raw.get(file))]));
const transactionsOf = (file: string): any[] => {
  const body = raw.get(file);
  return (body.result ?? body.block ?? body).transactions;
};

describe('referenceAccounts on the real fixtures', () => {
  it('reads every fixture block, one entry per transaction with a base58 signature', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
    for (const file of FILES) {
      const accounts = decoded.get(file)!;
      expect(accounts.length, file).toBe(transactionsOf(file).length);
      for (const { signature } of accounts) expect(signature, file).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
    }
  });

  it('gives the same accounts for the same block in every encoding', () => {
    const byBlock = new Map<string, string[]>();
    for (const file of FILES.filter((f) => ENCODING.test(f))) {
      const block = file.replace(ENCODING, '');
      byBlock.set(block, [...(byBlock.get(block) ?? []), file]);
    }
    const pairs = [...byBlock.values()].filter((files) => files.length > 1);
    for (const block of ['blocks/block-254170887', 'parsed-blocks/block-355825332', 'parsed-blocks/block-110130000']) {
      expect(byBlock.get(block)?.length, block).toBe(2);
    }
    expect(pairs.length).toBe(8);
    for (const [first, ...others] of pairs) {
      for (const other of others) expect(decoded.get(other), `${other} vs ${first}`).toEqual(decoded.get(first));
    }
  });

  it('partitions the full account list, with the fee payer writable and no reserved key writable', () => {
    for (const file of FILES) {
      const transactions = transactionsOf(file);
      decoded.get(file)!.forEach(({ writable, readonly }, i) => {
        const all = [...writable, ...readonly];
        expect(new Set(all).size, file).toBe(all.length);
        expect(writable.filter((key) => RESERVED_ACCOUNT_KEYS.has(key)), file).toEqual([]);
        const { transaction, meta } = transactions[i];
        if (Array.isArray(transaction)) return; // base64: covered by the equality with its json sibling
        const first = transaction.message.accountKeys[0];
        expect(writable[0], file).toBe(typeof first === 'string' ? first : first.pubkey);
        const loaded = meta.loadedAddresses ?? { writable: [], readonly: [] };
        const count = transaction.message.accountKeys.length + (typeof first === 'string' ? loaded.writable.length + loaded.readonly.length : 0);
        expect(all.length, file).toBe(count);
      });
    }
  });

  it('write-locks the loaded writable addresses of v0 transactions and only those of the loaded ones', () => {
    let lookups = 0;
    for (const file of FILES) {
      const transactions = transactionsOf(file);
      decoded.get(file)!.forEach(({ writable, readonly }, i) => {
        const { transaction, meta } = transactions[i];
        const keys = Array.isArray(transaction) ? [] : transaction.message.accountKeys;
        const loaded = typeof keys[0] === 'object'
          ? { // jsonParsed: the lookup keys are in the list, marked by source
              writable: keys.filter((k: any) => k.source === 'lookupTable' && k.writable).map((k: any) => k.pubkey),
              readonly: keys.filter((k: any) => k.source === 'lookupTable' && !k.writable).map((k: any) => k.pubkey),
            }
          : meta.loadedAddresses ?? { writable: [], readonly: [] };
        lookups += loaded.writable.length;
        for (const key of loaded.writable) expect(RESERVED_ACCOUNT_KEYS.has(key) ? readonly : writable, file).toContain(key);
        for (const key of loaded.readonly) expect(readonly, file).toContain(key);
      });
    }
    expect(lookups).toBeGreaterThan(1000);
  });

  // Top written accounts seen (count of transactions write-locking them): 254170887 agsWhfJ5… 20;
  // sava-block 7dGrdJRY…/8VfznLqu… 165; 100356971 HekM1hBa… 41; 285000037 4G311cQ5… 154; 332254855
  // D1ZN9Wj1… 104; 332254908 6AGB9kqg… 118; 110130000 CuieVDED… 58; 110360000 HekM1hBa… 226; 355825332
  // 2oPNPBkP… 86. Programs are demoted, so these are pool, oracle and market state accounts.
  it('finds hot accounts: every block of 500+ transactions has an account written by more than 10 of them', () => {
    for (const file of FILES) {
      const accounts = decoded.get(file)!;
      if (accounts.length < 500) continue;
      const counts = new Map<string, number>();
      for (const { writable } of accounts) for (const key of writable) counts.set(key, (counts.get(key) ?? 0) + 1);
      expect(Math.max(...counts.values()), file).toBeGreaterThan(10);
    }
  });
});

// --- hand-made transactions -------------------------------------------------------------------------

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** Base58 decoding to 32 bytes, independent of the encoder under test. */
function key32(text: string): number[] {
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  return Array.from({ length: 32 }, (_, i) => Number((n >> BigInt(8 * (31 - i))) & 0xffn));
}
const LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';
const CLOCK = 'SysvarC1ock11111111111111111111111111111111';
const PAYER = base58(new Uint8Array(32).fill(1));
const PROGRAM = base58(new Uint8Array(32).fill(2));
const OTHER = base58(new Uint8Array(32).fill(3));
const LOADED_W = base58(new Uint8Array(32).fill(4));
const LOADED_R = base58(new Uint8Array(32).fill(5));

/**
 * A one-signature transaction, header [1, 0, readonlyUnsigned], one instruction calling keys[1] (all
 * counts below 128, so each compact-u16 is one byte); v0 adds one lookup table with the given index counts.
 */
function wire(keys: string[], readonlyUnsigned: number, lookup?: { writable: number; readonly: number }): string {
  const bytes = [1, ...new Array(64).fill(7)];
  if (lookup) bytes.push(0x80);
  bytes.push(1, 0, readonlyUnsigned, keys.length, ...keys.flatMap(key32), ...new Array(32).fill(9));
  bytes.push(1, 1, 2, 0, 2, 1, 42); // one instruction: program 1, accounts [0, 2], data [42]
  if (lookup) {
    bytes.push(1, ...new Array(32).fill(8));
    bytes.push(lookup.writable, ...Array.from({ length: lookup.writable }, (_, i) => i));
    bytes.push(lookup.readonly, ...Array.from({ length: lookup.readonly }, (_, i) => 100 + i));
  }
  return Buffer.from(bytes).toString('base64');
}
const block = (text: string, loadedAddresses = { writable: [] as string[], readonly: [] as string[] }) =>
  ({ jsonrpc: '2.0', id: 1, result: { transactions: [{ transaction: [text, 'base64'], meta: { loadedAddresses } }] } });

describe('referenceAccounts on hand-made transactions', () => {
  it('encodes base58 like the known key names', () => {
    expect(base58(new Uint8Array(32))).toBe('11111111111111111111111111111111');
    expect(base58(Uint8Array.from(key32(LOADER)))).toBe(LOADER);
    expect(base58(Uint8Array.from(key32(CLOCK)))).toBe(CLOCK);
  });

  it('demotes a writable program id, unless the upgradeable loader is among the keys', () => {
    const [plain] = referenceAccounts(block(wire([PAYER, PROGRAM, OTHER], 0)));
    expect(plain).toEqual({ signature: base58(new Uint8Array(64).fill(7)), writable: [PAYER, OTHER], readonly: [PROGRAM] });
    const [withLoader] = referenceAccounts({ slot: 1, block: block(wire([PAYER, PROGRAM, OTHER, LOADER], 0)).result });
    expect(withLoader.writable).toEqual([PAYER, PROGRAM, OTHER]); // the loader itself is reserved
    expect(withLoader.readonly).toEqual([LOADER]);
    const [readonlyTail] = referenceAccounts(block(wire([PAYER, PROGRAM, OTHER], 1)));
    expect(readonlyTail.writable).toEqual([PAYER]);
  });

  it('appends loaded writable then loaded readonly for v0, and never write-locks a reserved loaded key', () => {
    const text = wire([PAYER, PROGRAM, OTHER], 0, { writable: 2, readonly: 1 });
    const [v0] = referenceAccounts(block(text, { writable: [LOADED_W, CLOCK], readonly: [LOADED_R] }));
    expect(v0.writable).toEqual([PAYER, OTHER, LOADED_W]);
    expect(v0.readonly).toEqual([PROGRAM, CLOCK, LOADED_R]);
    expect(() => referenceAccounts(block(text))).toThrow(/loadedAddresses/);
  });

  it('applies the same rule to jsonParsed writable flags', () => {
    const accountKeys = [PAYER, PROGRAM, OTHER, CLOCK].map((pubkey, i) => ({ pubkey, writable: true, signer: i === 0, source: 'transaction' }));
    const message = { accountKeys, instructions: [{ programId: PROGRAM, accounts: [PAYER], data: '' }] };
    const [parsed] = referenceAccounts({ transactions: [{ transaction: { signatures: ['sig'], message }, meta: {} }] });
    expect(parsed).toEqual({ signature: 'sig', writable: [PAYER, OTHER], readonly: [PROGRAM, CLOCK] });
  });
});
