// The base64 blocks and their json twins: block 254170887 from helius-labs/photon and the 2025 block from
// sava-software/sava (both Apache-2.0; see test/fixtures/real/PROVENANCE.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBase58, encodeBase58 } from '../../../src/schema/base58.js';
import { decodeBase64 } from '../../../src/ingest/solana/base64.js';
import { decodeWireTransaction, WireFormatError } from '../../../src/ingest/solana/wire-format.js';
import { REAL_DATA } from '../../helpers/real-data.js';

const BLOCKS = `${REAL_DATA}blocks/`;
const result = (file: string) => {
  const doc = JSON.parse(readFileSync(BLOCKS + file, 'utf8'));
  return doc.result ?? doc;
};

describe('base58', () => {
  it('round-trips keys, leading zeros and empty input', () => {
    for (const text of ['11111111111111111111111111111111', 'So11111111111111111111111111111111111111112', '1', '', '3yZe7d']) {
      expect(encodeBase58(decodeBase58(text)!)).toBe(text);
    }
    expect(decodeBase58('11111111111111111111111111111111')).toEqual(new Uint8Array(32));
    expect(decodeBase58('0OIl')).toBeNull();
  });
});

describe('base64', () => {
  it('agrees with Buffer, with or without padding', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 64, 1232]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
      const text = Buffer.from(bytes).toString('base64');
      expect(decodeBase64(text)).toEqual(bytes);
      expect(decodeBase64(text.replace(/=+$/, ''))).toEqual(bytes);
    }
    expect(decodeBase64('a$==')).toBeNull();
    expect(decodeBase64('abcde')).toBeNull();
  });
});

describe('decodeWireTransaction', () => {
  it.each(['block-254170887', 'sava-block'])('matches the json encoding of every transaction of %s', (base) => {
    const binary = result(`${base}.base64.json`).transactions;
    const json = result(`${base}.json-encoding.json`).transactions;
    let versions = { legacy: 0, v0: 0 };
    binary.forEach((entry: any, i: number) => {
      const wire = decodeWireTransaction(decodeBase64(entry.transaction[0])!);
      const tx = json[i].transaction;
      expect(wire.signatures.map(encodeBase58)).toEqual(tx.signatures);
      expect(wire.header).toEqual(tx.message.header);
      expect(wire.staticAccountKeys.map(encodeBase58)).toEqual(tx.message.accountKeys);
      expect(encodeBase58(wire.recentBlockhash)).toBe(tx.message.recentBlockhash);
      expect(wire.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: [...ix.accountIndexes], data: encodeBase58(ix.data) }))).toEqual(
        tx.message.instructions.map((ix: any) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: ix.data })),
      );
      expect(wire.version).toBe(json[i].version);
      if (wire.version === 0) {
        versions.v0++;
        expect(wire.addressTableLookups.map((l) => ({
          accountKey: encodeBase58(l.accountKey), writableIndexes: [...l.writableIndexes], readonlyIndexes: [...l.readonlyIndexes],
        }))).toEqual(tx.message.addressTableLookups);
      } else versions.legacy++;
    });
    expect(versions.legacy).toBeGreaterThan(0);
    expect(versions.v0).toBeGreaterThan(0);
  });

  it('rejects truncated bytes, trailing bytes and unknown versions with the offset', () => {
    const bytes = decodeBase64(result('block-254170887.base64.json').transactions[0].transaction[0])!;
    expect(() => decodeWireTransaction(bytes.subarray(0, 100))).toThrow(WireFormatError);
    expect(() => decodeWireTransaction(Uint8Array.from([...bytes, 0]))).toThrow(/1 trailing bytes/);
    const v1 = Uint8Array.from(bytes);
    v1[65] = 0x81;
    expect(() => decodeWireTransaction(v1)).toThrow(/unsupported message version 1 at byte 65/);
  });
});
