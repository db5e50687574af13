/**
 * Deterministic data-point ids (DESIGN.md 4): a 53-bit hash of the record's key, so the same data
 * gives the same ids in every run and every engine, and every id is a safe JSON integer.
 */

/** Parts of a record key: method family, pair, window, slot or window start, signature... */
export type KeyPart = string | number | bigint | boolean;

/** A 53-bit hash (two interleaved 32-bit multiplicative hashes) of the key parts, joined by '|'. */
export function recordId(...parts: KeyPart[]): number {
  const text = parts.map(String).join('|');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
