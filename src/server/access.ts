/**
 * Who may call: the bearer token of a request (an HTTP POST or a WebSocket upgrade), and the demo
 * token's rate. A refusal is an HTTP status with its headers and the JSON-RPC error entry the body
 * carries, so HTTP and WebSocket refuse the same way (docs/semantics.md, Server).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, type RpcErrorObject } from '../rpc/errors.js';
import type { RateLimiter } from './rate-limit.js';
import type { TokenInfo, TokenRefusal, TokenStore } from './tokens.js';

/** A refused request: what to answer. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  error: RpcErrorObject;
}

/** The subprotocol prefix a browser WebSocket uses to carry its token (it cannot set headers). */
export const BEARER_PROTOCOL = 'bearer.';

const REFUSALS: Record<TokenRefusal, string> = {
  missing: 'unauthorized: no bearer token (send the header Authorization: Bearer <token>)',
  malformed: 'unauthorized: the bearer token is malformed',
  unknown: 'unauthorized: unknown bearer token',
  revoked: 'unauthorized: the bearer token was revoked',
};

/** -32001 with HTTP 401. */
export function unauthorized(refusal: TokenRefusal): Refusal {
  return {
    status: 401,
    headers: { 'WWW-Authenticate': `Bearer realm="chainlens"${refusal === 'missing' ? '' : ', error="invalid_token"'}` },
    error: { code: ErrorCode.Unauthorized, message: REFUSALS[refusal], data: { reason: refusal } },
  };
}

/** -32005 with HTTP 429 and Retry-After (whole seconds, at least 1). */
export function rateLimited(waitMs: number, limiter: RateLimiter): Refusal {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    status: 429,
    headers: { 'Retry-After': String(seconds) },
    error: {
      code: ErrorCode.RateLimited,
      message: `rate limited: the demo token allows ${limiter.rate.perSecond} requests per second (bursts of ${limiter.rate.burst}); retry after ${seconds} s`,
      data: { retryAfterMs: waitMs, ...limiter.rate },
    },
  };
}

/** The token of a request: `Authorization: Bearer <token>`, or a WebSocket subprotocol `bearer.<token>`. */
export function presentedToken(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer[ ]+(\S*)\s*$/i.exec(authorization);
    return match ? match[1] : '\0'; // another scheme, or junk: malformed, not missing
  }
  const protocols = headers['sec-websocket-protocol']?.split(',').map((p) => p.trim()) ?? [];
  return protocols.find((p) => p.startsWith(BEARER_PROTOCOL))?.slice(BEARER_PROTOCOL.length);
}

/** The token's check, then (for a demo token) its rate: the caller's token (and its text), or why it is refused. */
export function admit(
  headers: IncomingHttpHeaders, tokens: TokenStore, limiter: RateLimiter,
): { token: TokenInfo; presented: string } | { refused: Refusal } {
  const presented = presentedToken(headers);
  const check = tokens.check(presented);
  if (!check.ok) return { refused: unauthorized(check.refusal) };
  const refused = charge(check.token, limiter);
  return refused ? { refused } : { token: check.token, presented: presented! };
}

/** Charges one request to a demo token's bucket; the refusal when it is empty. */
export function charge(token: TokenInfo, limiter: RateLimiter): Refusal | undefined {
  if (!token.demo) return undefined;
  const wait = limiter.take(token.id);
  return wait > 0 ? rateLimited(wait, limiter) : undefined;
}
