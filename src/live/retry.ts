/** The retry policy of the RPC calls: a bounded number of attempts, exponential backoff with jitter. */

export interface RetryOptions {
  /** Attempts per call, the first included (default 8). */
  attempts?: number;
  /** Wait after the first failure, doubled after each next one (default 250 ms). */
  baseMs?: number;
  /** Longest wait between attempts, unless the server's Retry-After asks for more (default 10,000 ms). */
  maxMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, baseMs: 250, maxMs: 10_000 };

/** The policy with defaults filled in; throws a RangeError on a value that cannot work. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const policy = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(policy.attempts) || policy.attempts < 1) throw new RangeError(`retry.attempts must be an integer >= 1, got ${policy.attempts}`);
  if (!(policy.baseMs >= 0)) throw new RangeError(`retry.baseMs must be >= 0, got ${policy.baseMs}`);
  if (!(policy.maxMs >= policy.baseMs)) throw new RangeError(`retry.maxMs must be >= retry.baseMs, got ${policy.maxMs}`);
  return policy;
}

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based). Half of the exponential delay is
 * kept and half is random ("equal jitter"): followers restarted together spread out, yet none
 * retries at once. A server's Retry-After is a floor, never shortened.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  const jittered = Math.round(exponential / 2 + random() * (exponential / 2));
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}

/** A Retry-After header (delay-seconds or an HTTP date) in milliseconds from now; undefined if absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts (the timer is cleared: nothing outlives a stop). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
