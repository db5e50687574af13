/**
 * Bounded descriptions of client input for error messages. An error names what it got, but never
 * echoes more than ECHO_CHARS characters of it, never recurses with the input's depth and never
 * throws (BigInt, cycles, getters that throw, functions: all describable).
 */

import { ECHO_CHARS } from './limits.js';

/** JSON-like text of `value`, cut to `max` characters with an ellipsis. */
export function echo(value: unknown, max = ECHO_CHARS): string {
  let out = '';
  // an explicit stack instead of recursion: depth costs memory, not the call stack
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0 && out.length <= max) {
    const item = stack.pop();
    if (item instanceof Token) {
      out += item.text;
      continue;
    }
    if (item === null || item === undefined) out += String(item);
    else if (typeof item === 'string') out += JSON.stringify(item.length > max ? item.slice(0, max + 1) : item);
    else if (typeof item === 'bigint') out += `${item}n`;
    else if (typeof item === 'number' || typeof item === 'boolean') out += String(item);
    else if (typeof item === 'function') out += '[function]';
    else if (typeof item === 'symbol') out += '[symbol]';
    else if (typeof item === 'object') {
      if (seen.has(item)) {
        out += '[cycle]';
        continue;
      }
      seen.add(item);
      const isArray = Array.isArray(item);
      let keys: string[];
      try {
        keys = isArray ? [] : Object.keys(item);
      } catch {
        out += '[unreadable]';
        continue;
      }
      const parts: unknown[] = [new Token(isArray ? '[' : '{')];
      const length = isArray ? (item as unknown[]).length : keys.length;
      // at most as many entries as could fit: the rest would be cut anyway
      for (let i = 0; i < Math.min(length, max); i++) {
        if (i > 0) parts.push(new Token(','));
        if (!isArray) parts.push(new Token(`${JSON.stringify(keys[i]!.slice(0, max))}:`));
        parts.push(readSafely(item, isArray ? i : keys[i]!));
      }
      if (length > max) parts.push(new Token(',…'));
      parts.push(new Token(isArray ? ']' : '}'));
      for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
    } else out += String(item);
  }
  return out.length > max || stack.length > 0 ? `${out.slice(0, max)}…` : out;
}

/** Literal text in the walk (brackets, separators). */
class Token {
  constructor(readonly text: string) {}
}

function readSafely(object: object, key: string | number): unknown {
  try {
    return (object as Record<string | number, unknown>)[key];
  } catch {
    return new Token('[unreadable]');
  }
}

/**
 * Whether `value` nests objects or arrays more than `limit` levels deep. Iterative, and bounded:
 * a cycle nests without end, so it is too deep; an object shared twice is walked twice.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let budget = 100_000; // entries visited: a body this wide is refused as too deep rather than walked on
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit || --budget < 0) return true;
    let values: unknown[];
    try {
      values = Array.isArray(item) ? item : Object.values(item);
    } catch {
      continue;
    }
    for (const v of values) stack.push([v, depth + 1]);
  }
  return false;
}

/** `text` cut to `max` characters with an ellipsis (a name the client chose, repeated as it is). */
export function cut(text: string, max = ECHO_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
