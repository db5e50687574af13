/**
 * One shape for a transaction whatever its RPC encoding (`json`, `jsonParsed`, `base64`, `base58`):
 * signatures, the full account list (static keys, then v0 loaded writable, then loaded read-only, as
 * balances are indexed) with the writability the message asks for, and the top-level instructions
 * with their program id and raw data.
 */
import { decodeBase58, encodeBase58 } from '../../schema/base58.js';
import { decodeBase64 } from './base64.js';
import { describe, FieldError, isObject } from './field-error.js';
import { COMPUTE_BUDGET_PROGRAM, PRECOMPILE_PROGRAMS } from './programs.js';
import { decodeWireTransaction, WireFormatError, type MessageHeader } from './wire-format.js';

const RAW_DATA_PROGRAMS: ReadonlySet<string> = new Set([COMPUTE_BUDGET_PROGRAM, ...PRECOMPILE_PROGRAMS]);

/** A top-level instruction. `data` is null only for a `jsonParsed` instruction the RPC parsed. */
export interface TxInstruction {
  readonly programId: string;
  readonly data: Uint8Array | null;
}

/** A transaction reduced to what the decoders need. */
export interface TransactionView {
  readonly signatures: readonly string[];
  readonly accountKeys: readonly string[];
  /**
   * Per account key, whether the message asks for it writable (the header's counts, v0 loaded
   * writable addresses, jsonParsed's flag); the runtime may still demote it (write-locks.ts).
   */
  readonly writable: readonly boolean[];
  readonly instructions: readonly TxInstruction[];
}

/** The encodings a getBlock/getTransaction response can carry. */
export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

/** A view and the encoding it was read from. */
export interface ViewedTransaction {
  readonly view: TransactionView;
  readonly encoding: TransactionEncoding;
}

/** Base58 text of the 32-byte keys, memoised per decoder because blocks repeat program and mint keys. */
export class KeyEncoder {
  private readonly cache = new Map<string, string>();

  encode(bytes: Uint8Array): string {
    let id = '';
    for (let i = 0; i < bytes.length; i++) id += String.fromCharCode(bytes[i]);
    let text = this.cache.get(id);
    if (text === undefined) {
      text = encodeBase58(bytes);
      this.cache.set(id, text);
    }
    return text;
  }
}

/**
 * The first signature of a getBlock entry (`{transaction, meta}`), read as cheaply as possible so that
 * the rejection of an entry that cannot be decoded (bad meta, a value out of range) can name it;
 * undefined when the transaction itself is unreadable.
 */
export function entrySignature(entry: unknown): string | undefined {
  const raw = isObject(entry) ? entry.transaction : undefined;
  if (isObject(raw)) {
    const first = Array.isArray(raw.signatures) ? raw.signatures[0] : undefined;
    return typeof first === 'string' ? first : undefined;
  }
  if (!Array.isArray(raw) || typeof raw[0] !== 'string' || (raw[1] !== 'base64' && raw[1] !== 'base58')) return undefined;
  const bytes = raw[1] === 'base64' ? decodeBase64(raw[0]) : decodeBase58(raw[0]);
  if (!bytes) return undefined;
  // compact-u16 signature count, then the 64-byte signatures
  let count = 0;
  let at = 0;
  for (let shift = 0; at < 3 && at < bytes.length; shift += 7) {
    const byte = bytes[at++];
    count |= (byte & 0x7f) << shift;
    if (byte < 0x80) break;
  }
  return count > 0 && bytes.length >= at + 64 ? encodeBase58(bytes.subarray(at, at + 64)) : undefined;
}

/**
 * Builds the view of `raw` (the `transaction` field of a getBlock entry). `loaded` is
 * `meta.loadedAddresses`, needed for binary and `json` v0 messages. `field` prefixes error paths.
 */
export function viewTransaction(raw: unknown, loaded: unknown, field: string, keys: KeyEncoder): ViewedTransaction {
  if (Array.isArray(raw)) return viewBinary(raw, loaded, field, keys);
  if (isObject(raw)) return viewJson(raw, loaded, field);
  throw new FieldError(field, `expected an encoded transaction ([data, encoding] or an object), got ${describe(raw)}`);
}

function viewBinary(raw: unknown[], loaded: unknown, field: string, keys: KeyEncoder): ViewedTransaction {
  const [text, encoding] = raw;
  if (encoding !== 'base64' && encoding !== 'base58') {
    throw new FieldError(`${field}[1]`, `unknown transaction encoding ${describe(encoding)} (expected base64, base58, json or jsonParsed)`);
  }
  if (typeof text !== 'string') throw new FieldError(`${field}[0]`, `expected ${encoding} text, got ${describe(text)}`);
  const bytes = encoding === 'base64' ? decodeBase64(text) : decodeBase58(text);
  if (bytes === null) throw new FieldError(`${field}[0]`, `not valid ${encoding}`);
  let wire;
  try {
    wire = decodeWireTransaction(bytes);
  } catch (error) {
    if (error instanceof WireFormatError) throw new FieldError(`${field}[0]`, `malformed transaction: ${error.message}`);
    throw error;
  }
  const accountKeys = wire.staticAccountKeys.map((k) => keys.encode(k));
  const writable = headerWritable(wire.header, accountKeys.length);
  if (wire.version === 0) appendLoaded(accountKeys, writable, loadedAddresses(loaded, wire.addressTableLookups.length > 0, field));
  const instructions = wire.instructions.map((ix, i) => ({
    programId: programKey(accountKeys, ix.programIdIndex, `${field}.message.instructions[${i}].programIdIndex`),
    data: ix.data,
  }));
  return { view: { signatures: wire.signatures.map((s) => encodeBase58(s)), accountKeys, writable, instructions }, encoding };
}

function viewJson(raw: Record<string, unknown>, loaded: unknown, field: string): ViewedTransaction {
  const signatures = raw.signatures;
  if (!Array.isArray(signatures) || !signatures.every((s) => typeof s === 'string')) {
    throw new FieldError(`${field}.signatures`, `expected an array of base58 signatures, got ${describe(signatures)}`);
  }
  const message = raw.message;
  if (!isObject(message)) throw new FieldError(`${field}.message`, `expected an object, got ${describe(message)}`);
  const rawKeys = message.accountKeys;
  if (!Array.isArray(rawKeys)) throw new FieldError(`${field}.message.accountKeys`, `expected an array, got ${describe(rawKeys)}`);

  // jsonParsed lists every key as {pubkey, signer, writable, source}, lookup-table ones included.
  const parsed = rawKeys.length > 0 && isObject(rawKeys[0]);
  const accountKeys = rawKeys.map((k, i) => {
    const key = parsed && isObject(k) ? k.pubkey : k;
    if (typeof key !== 'string') throw new FieldError(`${field}.message.accountKeys[${i}]`, `expected a base58 key, got ${describe(k)}`);
    return key;
  });
  const writable = parsed
    ? rawKeys.map((k) => (k as Record<string, unknown>).writable === true)
    : headerWritable(jsonHeader(message.header, `${field}.message.header`), accountKeys.length);
  const lookups = message.addressTableLookups;
  if (!parsed && Array.isArray(lookups)) appendLoaded(accountKeys, writable, loadedAddresses(loaded, lookups.length > 0, field));

  const rawInstructions = message.instructions;
  if (!Array.isArray(rawInstructions)) {
    throw new FieldError(`${field}.message.instructions`, `expected an array, got ${describe(rawInstructions)}`);
  }
  const instructions = rawInstructions.map((ix, i) => jsonInstruction(ix, accountKeys, `${field}.message.instructions[${i}]`));
  return { view: { signatures, accountKeys, writable, instructions }, encoding: parsed ? 'jsonParsed' : 'json' };
}

function jsonInstruction(ix: unknown, accountKeys: string[], field: string): TxInstruction {
  if (!isObject(ix)) throw new FieldError(field, `expected an instruction object, got ${describe(ix)}`);
  const programId =
    typeof ix.programId === 'string' ? ix.programId : programKey(accountKeys, ix.programIdIndex, `${field}.programIdIndex`);
  // The RPC parses no ComputeBudget or precompile instruction; their raw data is always there.
  if (ix.data === undefined && ix.parsed !== undefined && !RAW_DATA_PROGRAMS.has(programId)) return { programId, data: null };
  if (typeof ix.data !== 'string') throw new FieldError(`${field}.data`, `expected base58 data, got ${describe(ix.data)}`);
  const data = decodeBase58(ix.data);
  if (data === null) throw new FieldError(`${field}.data`, 'not valid base58');
  return { programId, data };
}

function programKey(accountKeys: readonly string[], index: unknown, field: string): string {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= accountKeys.length) {
    throw new FieldError(field, `program id index ${describe(index)} outside the ${accountKeys.length} account keys`);
  }
  return accountKeys[index];
}

/**
 * Static keys the header asks writable: the signers but the last `numReadonlySignedAccounts`, and
 * the other keys but the last `numReadonlyUnsignedAccounts`.
 */
export function headerWritable(header: MessageHeader, keys: number): boolean[] {
  const signers = header.numRequiredSignatures;
  return Array.from({ length: keys }, (_, i) => i < signers
    ? i < signers - header.numReadonlySignedAccounts
    : i < keys - header.numReadonlyUnsignedAccounts);
}

/** A `json` message's header. */
function jsonHeader(header: unknown, field: string): MessageHeader {
  if (!isObject(header)) throw new FieldError(field, `expected the message header object, got ${describe(header)}`);
  const count = (name: keyof MessageHeader) => {
    const value = header[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 255) {
      throw new FieldError(`${field}.${name}`, `expected an integer 0-255, got ${describe(value)}`);
    }
    return value;
  };
  return {
    numRequiredSignatures: count('numRequiredSignatures'),
    numReadonlySignedAccounts: count('numReadonlySignedAccounts'),
    numReadonlyUnsignedAccounts: count('numReadonlyUnsignedAccounts'),
  };
}

/** v0: the full account list continues with the lookup-table addresses, writable first, as meta reports them. */
function appendLoaded(accountKeys: string[], writable: boolean[], loaded: LoadedAddresses): void {
  for (const key of loaded.writable) accountKeys.push(key), writable.push(true);
  for (const key of loaded.readonly) accountKeys.push(key), writable.push(false);
}

interface LoadedAddresses {
  readonly writable: readonly string[];
  readonly readonly: readonly string[];
}

/** `meta.loadedAddresses` of a v0 transaction (none for a legacy one). */
function loadedAddresses(loaded: unknown, required: boolean, field: string): LoadedAddresses {
  const metaField = field.replace(/\.transaction$/, '.meta.loadedAddresses');
  if (loaded === undefined || loaded === null) {
    if (required) throw new FieldError(metaField, 'a v0 transaction with address table lookups needs meta.loadedAddresses');
    return { writable: [], readonly: [] };
  }
  if (!isObject(loaded)) throw new FieldError(metaField, `expected {writable, readonly}, got ${describe(loaded)}`);
  const part = (name: 'writable' | 'readonly') => {
    const list = loaded[name] ?? [];
    if (!Array.isArray(list) || !list.every((k) => typeof k === 'string')) {
      throw new FieldError(`${metaField}.${name}`, `expected an array of base58 keys, got ${describe(list)}`);
    }
    return list as string[];
  };
  return { writable: part('writable'), readonly: part('readonly') };
}
