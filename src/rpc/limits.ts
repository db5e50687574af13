/**
 * Bounds on what one request may make the engine do (docs/semantics.md, Limits). Each is checked
 * before any work that grows with the input, and each refusal has its own error.
 */

/** Requests in one batch; a longer batch is one -32600 entry. */
export const MAX_BATCH = 100;
/** Characters of a method name; a longer name is -32601 without a suggestion. */
export const MAX_METHOD_CHARS = 128;
/** Levels of objects and arrays inside `params`; deeper is -32602. */
export const MAX_PARAMS_NESTING = 8;
/** Levels of a body a port client posts; deeper is refused before posting (-32600): structured clone fails near 2,000. */
export const MAX_POST_NESTING = 1_000;
/** Characters of client input an error message repeats. */
export const ECHO_CHARS = 64;
