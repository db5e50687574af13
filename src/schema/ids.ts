/**
 * Deterministic data-point ids (DESIGN.md 4): a 53-bit hash of the record's key, so the same data
 * gives the same ids in every run and every engine, and every id is a safe JSON integer.
 */

/** Parts of a record key: method family, pair, window, slot or window start, signature... */
export type KeyPart = string | number | bigint | boolean;

const SEPARATOR = '|'.charCodeAt(0);

/** A 53-bit hash (two interleaved 32-bit multiplicative hashes) of the key parts, joined by '|'. */
export function recordId(...parts: KeyPart[]): number {
  // the parts' text hashed one part after another, a '|' between them: the joined string is never
  // made (ids are made for every record a stream pushes; the joins were a gigabyte of an hour's replay)
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    const text = typeof part === 'string' ? part : String(part);
    if (p > 0) {
      h1 = Math.imul(h1 ^ SEPARATOR, 2654435761);
      h2 = Math.imul(h2 ^ SEPARATOR, 1597334677);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
