/**
 * How a port client matches replies to requests: by a tag, never by order. `connect()` posts
 * `{tag, body}` (the body an object or JSON text) and the server answers `{tag, response}` (the
 * response array, or its JSON text when the body was text) as soon as it is ready. A bare body
 * (a hand-written client) is still answered with a bare response, in arrival order.
 */
import type { ResponseEntry } from '../rpc/dispatch.js';

/** A request as `connect()` posts it. */
export interface TaggedRequest {
  tag: number;
  body: unknown;
}

/** The server's answer to a tagged request. */
export interface TaggedReply {
  tag: number;
  response: ResponseEntry[] | string;
}

const isTag = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value);

/** The tagged request a message is, if it is one (a JSON-RPC request has `jsonrpc`; this has exactly tag and body). */
export function asTaggedRequest(data: unknown): TaggedRequest | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  if (keys.length !== 2 || !Object.hasOwn(data, 'body') || !isTag((data as { tag?: unknown }).tag)) return undefined;
  return data as TaggedRequest;
}

/** The tagged reply a message is, if it is one. */
export function asTaggedReply(data: unknown): TaggedReply | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const { tag, response } = data as Partial<TaggedReply>;
  return isTag(tag) && (typeof response === 'string' || Array.isArray(response)) ? (data as TaggedReply) : undefined;
}
