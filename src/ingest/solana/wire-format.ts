/**
 * Solana transaction wire format (what `encoding: base64` carries): a compact-u16 array of 64-byte
 * signatures followed by a legacy or versioned message. A versioned message starts with a byte whose
 * top bit is set (0x80 | version); only version 0 (address table lookups) exists.
 */

/** One compiled instruction: indexes into the transaction's full account list, and raw data. */
export interface CompiledInstruction {
  readonly programIdIndex: number;
  readonly accountIndexes: Uint8Array;
  readonly data: Uint8Array;
}

/** A v0 address table lookup: the table account and the indexes loaded from it. */
export interface AddressTableLookup {
  readonly accountKey: Uint8Array;
  readonly writableIndexes: Uint8Array;
  readonly readonlyIndexes: Uint8Array;
}

/** The message header: how many leading keys sign, and which keys are read-only. */
export interface MessageHeader {
  readonly numRequiredSignatures: number;
  readonly numReadonlySignedAccounts: number;
  readonly numReadonlyUnsignedAccounts: number;
}

/** A decoded wire transaction. Keys, hashes and signatures stay raw bytes. */
export interface WireTransaction {
  readonly signatures: Uint8Array[];
  readonly version: 'legacy' | 0;
  readonly header: MessageHeader;
  readonly staticAccountKeys: Uint8Array[];
  readonly recentBlockhash: Uint8Array;
  readonly instructions: CompiledInstruction[];
  readonly addressTableLookups: AddressTableLookup[];
}

/** Raised for bytes that are not a well-formed transaction; `offset` is where decoding stopped. */
export class WireFormatError extends Error {
  constructor(message: string, readonly offset: number) {
    super(`${message} at byte ${offset}`);
  }
}

class Reader {
  offset = 0;
  constructor(private readonly bytes: Uint8Array) {}

  u8(what: string): number {
    if (this.offset >= this.bytes.length) throw new WireFormatError(`truncated ${what}`, this.offset);
    return this.bytes[this.offset++];
  }

  /** compact-u16 ("shortvec"): 7 bits per byte, little-endian, at most 3 bytes. */
  compactU16(what: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what);
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) throw new WireFormatError(`${what} exceeds u16`, this.offset);
        return value;
      }
    }
    throw new WireFormatError(`${what} longer than 3 bytes`, this.offset);
  }

  take(length: number, what: string): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new WireFormatError(`truncated ${what}`, this.offset);
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  array(what: string): Uint8Array {
    return this.take(this.compactU16(`${what} length`), what);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }
}

/** Decodes one serialized transaction; throws WireFormatError for malformed or trailing bytes. */
export function decodeWireTransaction(bytes: Uint8Array): WireTransaction {
  const r = new Reader(bytes);
  const signatureCount = r.compactU16('signature count');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < signatureCount; i++) signatures.push(r.take(64, 'signature'));

  let version: 'legacy' | 0 = 'legacy';
  let first = r.u8('message header');
  if (first & 0x80) {
    if ((first & 0x7f) !== 0) throw new WireFormatError(`unsupported message version ${first & 0x7f}`, r.offset - 1);
    version = 0;
    first = r.u8('message header');
  }
  const header: MessageHeader = {
    numRequiredSignatures: first,
    numReadonlySignedAccounts: r.u8('message header'),
    numReadonlyUnsignedAccounts: r.u8('message header'),
  };

  const keyCount = r.compactU16('account key count');
  const staticAccountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) staticAccountKeys.push(r.take(32, 'account key'));
  const recentBlockhash = r.take(32, 'recent blockhash');

  const instructionCount = r.compactU16('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = r.u8('program id index');
    const accountIndexes = r.array('instruction accounts');
    const data = r.array('instruction data');
    instructions.push({ programIdIndex, accountIndexes, data });
  }

  const addressTableLookups: AddressTableLookup[] = [];
  if (version === 0) {
    const lookupCount = r.compactU16('address table lookup count');
    for (let i = 0; i < lookupCount; i++) {
      const accountKey = r.take(32, 'lookup table key');
      const writableIndexes = r.array('lookup writable indexes');
      const readonlyIndexes = r.array('lookup readonly indexes');
      addressTableLookups.push({ accountKey, writableIndexes, readonlyIndexes });
    }
  }
  if (r.remaining !== 0) throw new WireFormatError(`${r.remaining} trailing bytes`, r.offset);
  return { signatures, version, header, staticAccountKeys, recentBlockhash, instructions, addressTableLookups };
}
