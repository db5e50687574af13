/**
 * An independent reference decoder of every transaction's run-time write-locked and read-only accounts,
 * straight from raw getBlock responses (json, jsonParsed and base64 encodings). It is a test oracle: it
 * shares no code with src/ and is written from the wire format and agave's SanitizedMessage::is_writable:
 *
 *   account i is write-locked iff (a) the message marks it writable (header ranges for static keys,
 *   loadedAddresses.writable for lookups), (b) it is not a reserved account key, and (c) it is not a
 *   program id of a top-level instruction, unless the upgradeable BPF loader is among the account keys.
 *
 * Everything else in the full account list (static keys, loaded writable, loaded readonly) is read-only.
 */

export interface ReferenceAccounts { signature: string; writable: string[]; readonly: string[] }

/**
 * agave's reserved_account_keys (sdk/reserved-account-keys, ReservedAccountKeys::all_keys_iter) with every
 * feature-gated key treated as activated: builtin programs and sysvars, which the runtime never write-locks.
 */
export const RESERVED_ACCOUNT_KEYS: ReadonlySet<string> = new Set([
  '11111111111111111111111111111111', 'AddressLookupTab1e1111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111', 'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111', 'ComputeBudget111111111111111111111111111111',
  'Config1111111111111111111111111111111111111', 'Ed25519SigVerify111111111111111111111111111',
  'Feature111111111111111111111111111111111111', 'LoaderV411111111111111111111111111111111111',
  'NativeLoader1111111111111111111111111111111', 'KeccakSecp256k11111111111111111111111111111',
  'Secp256r1SigVerify1111111111111111111111111', 'StakeConfig11111111111111111111111111111111',
  'Stake11111111111111111111111111111111111111', 'Vote111111111111111111111111111111111111111',
  'ZkE1Gama1Proof11111111111111111111111111111', 'ZkTokenProof1111111111111111111111111111111',
  'SysvarC1ock11111111111111111111111111111111', 'SysvarEpochRewards1111111111111111111111111',
  'SysvarEpochSchedu1e111111111111111111111111', 'SysvarFees111111111111111111111111111111111',
  'Sysvar1nstructions1111111111111111111111111', 'SysvarLastRestartS1ot1111111111111111111111',
  'SysvarRecentB1ockHashes11111111111111111111', 'SysvarRent111111111111111111111111111111111',
  'SysvarRewards111111111111111111111111111111', 'SysvarS1otHashes111111111111111111111111111',
  'SysvarS1otHistory11111111111111111111111111', 'SysvarStakeHistory1111111111111111111111111',
  'Sysvar1111111111111111111111111111111111111',
]);

/** Its presence among the account keys switches off program-id demotion (agave is_upgradeable_loader_present). */
const UPGRADEABLE_LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';

// Loose views of the JSON: the oracle checks what it relies on and throws on anything else.
type Json = any;

/** One transaction reduced to what the rule needs: the full key list, rule (a) per key, and the program ids. */
interface Decoded { signature: string; keys: string[]; writableByMessage: boolean[]; programIds: Set<string> }

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet): each leading zero byte is a '1', the rest is the big-endian number in base 58. */
export function base58(bytes: Uint8Array): string {
  const digits: number[] = []; // little-endian base-58 digits
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i] * 256;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    for (; carry > 0; carry = Math.floor(carry / 58)) digits.push(carry % 58);
  }
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  return '1'.repeat(zeros) + digits.reverse().map((d) => ALPHABET[d]).join('');
}

/** Rule (a) for static keys: signed-writable, then signed-readonly, then unsigned-writable, then unsigned-readonly. */
function headerWritable(count: number, signed: number, readonlySigned: number, readonlyUnsigned: number): boolean[] {
  return Array.from({ length: count }, (_, i) => i < signed - readonlySigned || (i >= signed && i < count - readonlyUnsigned));
}

/** The loaded addresses of a v0 message, checked against its lookups so that a missing meta field cannot go unnoticed. */
function loaded(meta: Json, lookupWritable: number, lookupReadonly: number): { writable: string[]; readonly: string[] } {
  const writable: string[] = meta?.loadedAddresses?.writable ?? [];
  const readonly: string[] = meta?.loadedAddresses?.readonly ?? [];
  if (writable.length !== lookupWritable || readonly.length !== lookupReadonly) {
    throw new Error(`loadedAddresses (${writable.length}+${readonly.length}) do not match the lookups (${lookupWritable}+${lookupReadonly})`);
  }
  return { writable, readonly };
}

/** Static keys, then loaded writable, then loaded readonly: the order agave's LoadedMessage indexes accounts in. */
function withLoaded(keys: string[], writable: boolean[], more: { writable: string[]; readonly: string[] }) {
  return {
    keys: [...keys, ...more.writable, ...more.readonly],
    writableByMessage: [...writable, ...more.writable.map(() => true), ...more.readonly.map(() => false)],
  };
}

/** The wire format: signatures, optional version prefix, header, keys, blockhash, instructions, v0 lookups. */
function decodeWire(text: string, meta: Json): Decoded {
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  let at = 0;
  const take = (n: number) => {
    if (at + n > bytes.length) throw new Error('truncated transaction');
    return bytes.subarray(at, (at += n));
  };
  const u8 = () => take(1)[0];
  const compactU16 = () => { // 7 bits per byte, low first, high bit = more (at most 3 bytes)
    let value = 0;
    for (let shift = 0; shift <= 14; shift += 7) {
      const byte = u8();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('compact-u16 longer than 3 bytes');
  };
  const signatures = Array.from({ length: compactU16() }, () => base58(take(64)));
  // A first message byte with the high bit set is a version prefix (0x80 | v); a legacy header byte never is.
  const versioned = (bytes[at] & 0x80) !== 0;
  if (versioned && (u8() & 0x7f) !== 0) throw new Error('unsupported message version');
  const [signed, readonlySigned, readonlyUnsigned] = take(3);
  if (signed !== signatures.length) throw new Error(`${signatures.length} signatures for ${signed} required`);
  const keys = Array.from({ length: compactU16() }, () => base58(take(32)));
  take(32); // recent blockhash
  const programIds = new Set<string>();
  for (let n = compactU16(); n > 0; n--) {
    programIds.add(keys[u8()]);
    take(compactU16()); // account indexes
    take(compactU16()); // data
  }
  let lookupWritable = 0, lookupReadonly = 0;
  if (versioned) {
    for (let n = compactU16(); n > 0; n--) {
      take(32); // table address
      lookupWritable += take(compactU16()).length;
      lookupReadonly += take(compactU16()).length;
    }
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after the message`);
  const staticWritable = headerWritable(keys.length, signed, readonlySigned, readonlyUnsigned);
  return { signature: signatures[0], programIds, ...withLoaded(keys, staticWritable, loaded(meta, lookupWritable, lookupReadonly)) };
}

/** The json encoding: the same message, already split into fields, keys in base58. */
function decodeJson(transaction: Json, meta: Json): Decoded {
  const { header, accountKeys, instructions, addressTableLookups } = transaction.message;
  const keys: string[] = accountKeys;
  const lookups: Json[] = addressTableLookups ?? [];
  const more = loaded(
    meta,
    lookups.reduce((sum, l) => sum + l.writableIndexes.length, 0),
    lookups.reduce((sum, l) => sum + l.readonlyIndexes.length, 0),
  );
  const staticWritable = headerWritable(keys.length, header.numRequiredSignatures, header.numReadonlySignedAccounts, header.numReadonlyUnsignedAccounts);
  const programIds = new Set<string>(instructions.map((ix: Json) => keys[ix.programIdIndex]));
  return { signature: transaction.signatures[0], programIds, ...withLoaded(keys, staticWritable, more) };
}

/**
 * jsonParsed: no header, the key objects already hold the full list with a `writable` flag. The RPC may
 * have applied (b) and (c) to that flag already; applying them again is harmless.
 */
function decodeParsed(transaction: Json): Decoded {
  const accountKeys: Json[] = transaction.message.accountKeys;
  const keys = accountKeys.map((k) => k.pubkey as string);
  const programIds = new Set<string>(
    transaction.message.instructions.map((ix: Json) => (typeof ix.programId === 'string' ? ix.programId : keys[ix.programIdIndex])),
  );
  return { signature: transaction.signatures[0], keys, writableByMessage: accountKeys.map((k) => k.writable === true), programIds };
}

function decode(entry: Json): Decoded {
  const { transaction, meta } = entry;
  if (Array.isArray(transaction)) {
    if (transaction[1] !== 'base64') throw new Error(`unsupported transaction encoding ${transaction[1]}`);
    return decodeWire(transaction[0], meta);
  }
  const first = transaction.message.accountKeys[0];
  return typeof first === 'string' ? decodeJson(transaction, meta) : decodeParsed(transaction);
}

/** The getBlock result inside a JSON-RPC envelope, a {slot, block} wrapper, or the result itself. */
function unwrap(block: Json): Json {
  if (block && typeof block === 'object') {
    if ('result' in block) return block.result;
    if ('block' in block) return block.block;
  }
  return block;
}

/** Every transaction of a getBlock response (json, jsonParsed or base64), in block order. */
export function referenceAccounts(block: unknown): ReferenceAccounts[] {
  const result = unwrap(block);
  if (!Array.isArray(result?.transactions)) throw new Error('no transactions array: is this a full getBlock response?');
  return result.transactions.map((entry: Json) => {
    const { signature, keys, writableByMessage, programIds } = decode(entry);
    const demotes = !keys.includes(UPGRADEABLE_LOADER);
    const out: ReferenceAccounts = { signature, writable: [], readonly: [] };
    keys.forEach((key, i) => {
      const locked = writableByMessage[i] && !RESERVED_ACCOUNT_KEYS.has(key) && !(demotes && programIds.has(key));
      (locked ? out.writable : out.readonly).push(key);
    });
    return out;
  });
}
