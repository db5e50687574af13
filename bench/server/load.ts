/**
 * The load generator of the server family: autocannon (programmatic API) in this process, POSTing
 * one JSON-RPC body over `connections` keep-alive connections without pipelining, for a fixed time.
 * Requests/s is the 2xx responses over the run's wall time, measured here (autocannon's own mean
 * of its per-sample counts is kept beside it); the latency percentiles are computed here from every response's own time (autocannon's `response` event, in fractional ms),
 * since autocannon's histogram records whole milliseconds; its p50/p97.5/p99 are kept beside them.
 */
import { createRequire } from 'node:module';
import { statsOfSamples, type Stats } from '../harness.js';

/** The slice of autocannon's result this family reads. */
interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  mismatches: number;
  '2xx': number;
  requests: { average: number; total: number; sent: number };
  latency: { p50: number; p97_5: number; p99: number; max: number };
  throughput: { average: number };
}

interface AutocannonOptions {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  connections: number;
  pipelining: number;
  duration?: number;
  amount?: number;
  sampleInt: number;
}

type Autocannon = (options: AutocannonOptions, done: (error: Error | null, result: AutocannonResult) => void) => {
  on(event: 'response', listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
};

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * autocannon's sampling interval, ms: a run ends at the first sample after its duration, so the
 * default (1 s) would run each measurement up to a second longer than asked.
 */
const SAMPLE_MS = 100;

/** One measurement of one server, one body, at one connection count. */
export interface LoadRun {
  connections: number;
  seconds: number;
  /** Responses with a 2xx status. */
  responses: number;
  /** 2xx responses per second of the run. */
  requests_per_s: number;
  /** autocannon's mean of its per-sample counts, per second. */
  autocannon_requests_per_s: number;
  /** Latency statistics of every response, ms (fractional). */
  latency: Stats;
  /** autocannon's own percentiles (whole milliseconds). */
  autocannon_ms: { p50: number; p97_5: number; p99: number; max: number };
  /** Errors (connection errors and timeouts), non-2xx responses, connection resets. */
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  /** Mean response size, bytes (headers included). */
  response_bytes: number;
}

/** POSTs `body` to `url` for `seconds` (or `amount` requests) over `connections` connections. */
export function hammer(url: string, headers: Record<string, string>, body: string, connections: number, limit: { seconds: number } | { amount: number }): Promise<LoadRun> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    let bytes = 0;
    const options: AutocannonOptions = {
      url, method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body, connections, pipelining: 1, sampleInt: SAMPLE_MS,
      ...('seconds' in limit ? { duration: limit.seconds } : { amount: limit.amount }),
    };
    const started = performance.now();
    const instance = autocannon(options, (error, result) => {
      const seconds = (performance.now() - started) / 1000;
      if (error) return reject(error);
      if (times.length === 0) return reject(new Error(`no response from ${url} in ${result.duration} s (errors ${result.errors})`));
      resolve({
        connections,
        seconds,
        responses: result['2xx'],
        requests_per_s: result['2xx'] / seconds,
        autocannon_requests_per_s: (result.requests.average * 1000) / SAMPLE_MS,
        latency: statsOfSamples(times),
        autocannon_ms: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99, max: result.latency.max },
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: result.non2xx,
        resets: result.resets,
        response_bytes: bytes / times.length,
      });
    });
    instance.on('response', (_client, status, size, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
      bytes += size;
    });
  });
}

