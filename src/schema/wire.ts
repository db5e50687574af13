/**
 * Wire types of the seed (section 2) and the in-memory value each one carries.
 *
 * Integers may be `number` (when the producer knows they are safe) or `bigint` (u64 exact), or
 * `null` where the value is unknown (a token's supply read from balances);
 * DateTime and Duration are always `bigint` nanoseconds; floats are `number`, or `null`
 * for a value that is undefined (a ratio over zero, an unknown USD price).
 */
export type WireType =
  | 'id'
  | 'Utf8'
  | 'Uint1'
  | 'Uint4'
  | 'Uint8'
  | 'Int8'
  | 'Float4'
  | 'Float8'
  | 'DateTime'
  | 'Duration'
  | 'Boolean';

/** The TypeScript value type that a field of wire type `W` holds before encoding. */
export type ValueOf<W extends WireType> = W extends 'id'
  ? number
  : W extends 'Utf8'
    ? string
    : W extends 'Uint1' | 'Uint4' | 'Uint8' | 'Int8'
      ? number | bigint | null
      : W extends 'Float4' | 'Float8'
        ? number | null
        : W extends 'DateTime' | 'Duration'
          ? bigint
          : W extends 'Boolean'
            ? boolean
            : never;

/**
 * The JSON value a field of wire type `W` has in a response or a push (DESIGN.md 4): ids are JSON
 * integers, text and booleans are themselves, times and durations are ISO-8601 strings, and every
 * other number is a decimal string, or null where the value is unknown or undefined (a token's
 * supply, a statistic of no samples, a ratio over zero, a missing USD price).
 */
export type WireValueOf<W extends WireType> = W extends 'id'
  ? number
  : W extends 'Utf8'
    ? string
    : W extends 'Boolean'
      ? boolean
      : W extends 'DateTime' | 'Duration'
        ? string
        : W extends 'Uint1' | 'Uint4' | 'Uint8' | 'Int8' | 'Float4' | 'Float8'
          ? string | null
          : never;

/** How a wire type is represented in JSON: the JSON type and a one-line description for the docs. */
export const WIRE_DOCS: Record<WireType, string> = {
  id: 'JSON integer below 2^53, derived from the record key',
  Utf8: 'JSON string',
  Uint1: 'unsigned integer as a decimal string',
  Uint4: 'unsigned integer as a decimal string',
  Uint8: 'unsigned 64-bit integer as an exact decimal string (null when unknown)',
  Int8: 'signed 64-bit integer as an exact decimal string',
  Float4: 'shortest decimal string that round-trips to the same float32, or null',
  Float8: 'shortest decimal string that round-trips to the same float64, or null',
  DateTime: 'ISO-8601 UTC string with 9 fraction digits and Z',
  Duration: 'ISO-8601 duration string (PT5M, PT24H, PT0.003841S, PT0S)',
  Boolean: 'JSON boolean',
};
