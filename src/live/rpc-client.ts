/**
 * JSON-RPC over HTTP POST, one call per request, with the retry policy: network errors, timeouts,
 * HTTP 408/429/5xx and the JSON-RPC errors that mean "not yet" are tried again after a backoff
 * (HTTP Retry-After honoured); anything else, or the last attempt's failure, is fatal.
 */
import { backoffMs, retryAfterMs, sleep, type RetryPolicy } from './retry.js';

/**
 * JSON-RPC error codes of a Solana node that pass with time: -32004 block not available yet,
 * -32005 node unhealthy (behind), -32014 block status not yet available, -32016 minimum context
 * slot not reached (a load-balanced node behind the others).
 */
export const NOT_YET_CODES: ReadonlySet<number> = new Set([-32004, -32005, -32014, -32016]);

/** A failure that may pass: the call is tried again (after `retryAfterMs` at least, when the server said). */
export class TransientFailure extends Error {
  constructor(message: string, readonly retryAfterMs?: number) {
    super(message);
  }
}

/** A JSON-RPC error object in an answer. */
export class RpcErrorAnswer extends Error {
  constructor(readonly code: number, readonly rpcMessage: string) {
    super(`JSON-RPC error ${code}: ${rpcMessage}`);
  }
}

/** A call that failed for good: the follower stops with it. Names the endpoint and the method. */
export class FollowError extends Error {
  constructor(readonly method: string, readonly url: string, reason: string) {
    super(`${method} at ${url}: ${reason}`);
    this.name = 'FollowError';
  }
}

/** Why a follower stopped its calls: its own stop, not a failure. */
export class FollowStopped extends Error {
  constructor() {
    super('the follower was stopped');
  }
}

/** What was retried, for the follower's events. */
export interface RetryNotice {
  method: string;
  attempt: number;
  delayMs: number;
  reason: string;
}

export interface RpcClientOptions {
  url: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch;
  /** Aborts every request and wait in progress (the follower's stop). */
  signal: AbortSignal;
  onRetry: (notice: RetryNotice) => void;
}

/** The URL as errors and source names show it: no credentials, no query string (API keys live there). */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** JSON text of request params; bigints (slots) are written as integers, exactly. */
export function jsonText(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The message of a fetch failure: undici's "fetch failed" hides the cause (ECONNREFUSED, ECONNRESET...). */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const detail = cause?.code ?? cause?.message;
  return `network error: ${(error as Error)?.message ?? String(error)}${detail ? ` (${detail})` : ''}`;
}

export class RpcClient {
  readonly url: string;
  #id = 0;

  constructor(private readonly options: RpcClientOptions) {
    this.url = displayUrl(options.url);
  }

  /**
   * Calls `method`; `read` turns the answer's text into the value, throwing a TransientFailure or
   * an RpcErrorAnswer when it is not one. Rejects with a FollowError, or FollowStopped on a stop.
   */
  async call<T>(method: string, params: readonly unknown[], read: (text: string) => T): Promise<T> {
    const { retry, signal } = this.options;
    for (let attempt = 1; ; attempt++) {
      let failure: TransientFailure;
      try {
        return await this.#attempt(method, params, read);
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof RpcErrorAnswer && NOT_YET_CODES.has(error.code)) failure = new TransientFailure(error.message);
        else if (error instanceof TransientFailure) failure = error;
        else throw new FollowError(method, this.url, (error as Error)?.message ?? String(error));
      }
      if (attempt >= retry.attempts) {
        throw new FollowError(method, this.url, `gave up after ${attempt} attempts; the last failed with ${failure.message}`);
      }
      const delayMs = backoffMs(retry, attempt, failure.retryAfterMs);
      this.options.onRetry({ method, attempt, delayMs, reason: failure.message });
      await sleep(delayMs, signal);
    }
  }

  async #attempt<T>(method: string, params: readonly unknown[], read: (text: string) => T): Promise<T> {
    const { signal, timeoutMs } = this.options;
    const body = jsonText({ jsonrpc: '2.0', id: ++this.#id, method, params });
    // one controller per request: the stop aborts it, and so does its own timer, which is cleared
    // as soon as the answer is read (unlike AbortSignal.timeout, nothing is left running)
    const controller = new AbortController();
    const onStop = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onStop, { once: true });
    const timer = setTimeout(() => controller.abort(new TransientFailure(`no answer within ${timeoutMs} ms`)), timeoutMs);
    try {
      let response: Response;
      let text: string;
      try {
        response = await this.options.fetch(this.options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body,
          signal: controller.signal,
        });
        text = await response.text();
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw new TransientFailure(networkReason(error));
      }
      const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      if (response.status === 408 || response.status === 429 || response.status >= 500) {
        throw new TransientFailure(status, retryAfterMs(response.headers.get('retry-after')));
      }
      if (!response.ok) throw new Error(`${status}: ${text.slice(0, 200)}`);
      return read(text);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onStop);
    }
  }
}
