/**
 * The server family: `serve(engine)` over HTTP and WebSocket, each process apart.
 *
 * HTTP: the server under test (chainlens-server.ts) loads a 2-minute mainnet-profile dump, then
 * replays the one-hour dump from where that one ends (speed Infinity, the replay's default
 * retention) until its clock is past the first retention prune, and pauses. Every method's limit-1
 * call (the latency family's calls) is measured with autocannon from this process: idle (the replay
 * paused: the engine holding the last 15 minutes), beside a bare `node:http` server answering the
 * same bytes (bare-server.ts: the transport's own limit), and while the replay ingests (resumed), at
 * 10 connections for every method and at 1 and 100 connections for three representative ones; last,
 * at 10 connections while a new replay goes on at speed 1 (the chain's own pace). Quick mode: the
 * same on tiny dumps, a quarter-second runs, 20 sockets.
 *
 * WebSocket: a fresh server loads the same 2-minute dump; 1,000 sockets in another process
 * (ws-clients.ts) subscribe to chain::priorityfee::block; a replay of the next minute of the
 * one-hour dump pushes each block to each socket, and every socket's pushes are counted.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDump, MAINNET, TINY, type Dump } from '../e2e/dumps.js';
import { median, percentile, statsOfSamples, type Figure, type SubjectResult, type Target } from '../harness.js';
import { LATENCY_CALLS } from '../latency.js';
import type { BenchOptions } from '../options.js';
import type { ServerMark, ServerReady, ServerReplayReport } from './chainlens-server.js';
import { startControlled, type Controlled } from './control.js';
import { hammer, type LoadRun } from './load.js';
import type { ClientsReport } from './ws-clients.js';

/** The issue's targets, at 10 connections while a replay ingests, and for the WebSockets. */
export const SERVER_TARGETS = { rpsRatio: 0.5, p99Ms: 5, sockets: 1_000 } as const;

/** The methods also measured at 1 and 100 connections: the headline fee answer, a candle, the newest trade. */
export const REPRESENTATIVE = ['chain::priorityfee::recommendation', 'chain::market::ohlcv', 'chain::market::trades'] as const;

/** The connection counts, the one the targets apply to in the middle. */
export const CONNECTIONS = [1, 10, 100] as const;
const TARGET_CONNECTIONS = 10;

const AUTOCANNON_VERSION = (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version;

/** The method the WebSockets subscribe to: one BlockFees point per block. */
const WS_METHOD = 'chain::priorityfee::block';

interface Sizes {
  /** How long each measurement runs. */
  limit: { seconds: number };
  /** Warm-up requests per method and server. */
  warmup: number;
  load: Dump;
  replay: Dump;
  /** Simulated minutes the replay runs before the idle measurements (past the first prune of its 15m retention). */
  warmMinutes: number;
  sockets: number;
  /** Simulated minutes the WebSocket replay pushes. */
  wsMinutes: number;
}

async function sizes(options: BenchOptions): Promise<Sizes> {
  if (options.quick) {
    // tiny dumps (200 pairs, light blocks), cached beside the full run's; the replayed one outlasts the runs
    return {
      limit: { seconds: 0.25 }, warmup: 50, load: await ensureDump(TINY), replay: await ensureDump({ ...TINY, minutes: 40 }),
      warmMinutes: 0.1, sockets: 20, wsMinutes: 0.2,
    };
  }
  return {
    limit: { seconds: 3 }, warmup: 300, load: await ensureDump(MAINNET(2)), replay: await ensureDump(MAINNET(60)),
    warmMinutes: 16, sockets: SERVER_TARGETS.sockets, wsMinutes: 1,
  };
}

type Call = (typeof LATENCY_CALLS)[number];
const short = (method: string) => method.replace('chain::', '');
const bodyOf = (call: Call) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: call.method, params: call.params });

/** What is measured: every method at 10 connections, the representative ones at 1 and 100 too. */
function plan(): { call: Call; connections: number }[] {
  const out: { call: Call; connections: number }[] = [];
  for (const connections of [TARGET_CONNECTIONS, ...CONNECTIONS.filter((c) => c !== TARGET_CONNECTIONS)]) {
    for (const call of LATENCY_CALLS) {
      if (connections === TARGET_CONNECTIONS || (REPRESENTATIVE as readonly string[]).includes(call.method)) out.push({ call, connections });
    }
  }
  return out;
}

/** One POST through fetch: the answer's text, checked to be a one-entry result with data. */
async function capture(url: string, token: string, call: Call): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: bodyOf(call) });
  const text = await response.text();
  const entries = JSON.parse(text) as { result?: unknown[]; error?: { message: string } }[];
  if (response.status !== 200 || entries.length !== 1 || !Array.isArray(entries[0]!.result) || entries[0]!.result.length === 0) {
    throw new Error(`server: ${call.method} answered ${response.status} ${text.slice(0, 200)}`);
  }
  return text;
}

interface Measured {
  call: Call;
  connections: number;
  /** ingesting: a replay at speed Infinity; live: a replay at speed 1 (the chain's own pace). */
  condition: 'idle' | 'bare' | 'ingesting' | 'live';
  run: LoadRun;
  /** While a replay runs: blocks committed during the run, whether the replay ran past its end, the server's event-loop delay. */
  blocks?: number;
  replay_running?: boolean;
  loop?: { p50: number; p99: number; max: number };
}

const subjectId = (m: Pick<Measured, 'condition' | 'connections'>) => `${m.condition === 'bare' ? 'bare' : `chainlens-${m.condition}`}-${m.connections}c`;
const LABELS = {
  idle: 'chainlens, idle', ingesting: 'chainlens, while a replay ingests (speed Infinity)',
  live: 'chainlens, while a replay ingests at the chain\'s pace (speed 1)', bare: 'bare node:http, same answer bytes',
} as const;

/** The HTTP measurements: idle and bare side by side, then the same calls while the replay ingests. */
async function measureHttp(s: Sizes, scratch: string, log: (line: string) => void) {
  const server = startControlled<ServerReady>(new URL('./chainlens-server.js', import.meta.url).href, [s.load.folder, s.replay.folder]);
  let bare: Controlled<{ url: string }> | undefined;
  try {
    const ready = await server.ready;
    await server.send('replay');
    const warm = await server.send<{ blocks: number; seconds: number; time: string; state: string }>('warm', s.warmMinutes);
    log(`  server: loaded ${ready.loaded_blocks} blocks in ${ready.load_seconds.toFixed(1)} s; replayed ${warm.blocks} blocks in ${warm.seconds.toFixed(1)} s to ${warm.time} (${warm.state})`);
    const auth = { Authorization: `Bearer ${ready.token}` };
    const answers = new Map<string, string>();
    for (const call of LATENCY_CALLS) answers.set(call.method, await capture(ready.url, ready.token, call));
    const file = path.join(scratch, 'answers.json');
    await writeFile(file, JSON.stringify(LATENCY_CALLS.map((call) => [bodyOf(call), answers.get(call.method)!])));
    bare = startControlled<{ url: string }>(new URL('./bare-server.js', import.meta.url).href, [file]);
    const bareUrl = (await bare.ready).url;
    for (const call of LATENCY_CALLS) {
      await hammer(ready.url, auth, bodyOf(call), TARGET_CONNECTIONS, { amount: s.warmup });
      await hammer(bareUrl, {}, bodyOf(call), TARGET_CONNECTIONS, { amount: s.warmup });
    }

    const measured: Measured[] = [];
    const steps = plan();
    // idle and bare interleaved, so that both see the same moments of a shared machine
    for (const { call, connections } of steps) {
      measured.push({ call, connections, condition: 'idle', run: await hammer(ready.url, auth, bodyOf(call), connections, s.limit) });
      measured.push({ call, connections, condition: 'bare', run: await hammer(bareUrl, {}, bodyOf(call), connections, s.limit) });
    }
    log(`  idle and bare runs done`);
    await bare.exit();
    bare = undefined;
    log(`  bare server ended`);

    const whileReplaying = async (condition: 'ingesting' | 'live', which: typeof steps) => {
      const begun = await server.send<ServerMark>('mark');
      for (const { call, connections } of which) {
        const before = await server.send<ServerMark>('mark');
        const run = await hammer(ready.url, auth, bodyOf(call), connections, s.limit);
        const after = await server.send<ServerMark>('mark');
        measured.push({
          call, connections, condition, run, blocks: after.blocks - before.blocks, replay_running: after.state === 'running',
          loop: { p50: after.loop_delay_p50_ms, p99: after.loop_delay_p99_ms, max: after.loop_delay_max_ms },
        });
      }
      const end = await server.send<ServerMark>('mark');
      return { blocks: end.blocks - begun.blocks, seconds: (end.at_ms - begun.at_ms) / 1000, time: end.time };
    };
    await server.send('resume');
    const ingesting = await whileReplaying('ingesting', steps);
    log(`  ingesting runs done: ${ingesting.blocks} blocks in ${ingesting.seconds.toFixed(1)} s`);
    const report = await server.send<ServerReplayReport>('stop');
    if (report.rejected !== 0) throw new Error(`server: the replay rejected ${report.rejected} rows`);
    // the same dump on from the newest block, at the chain's pace: what a live feed asks of the server
    await server.send('replay', 'speed=1');
    const started = await server.send<{ seconds: number }>('next-block');
    const live = await whileReplaying('live', steps.filter((step) => step.connections === TARGET_CONNECTIONS));
    log(`  live runs done (${started.seconds.toFixed(1)} s to the first block): ${live.blocks} blocks in ${live.seconds.toFixed(1)} s`);
    await server.send('stop');
    const peak = await server.send<{ peak_rss_mib: number }>('peak');
    return { measured, ready, warm, report, answers, peak_rss_mib: peak.peak_rss_mib, ingesting, live };
  } finally {
    await bare?.exit();
    await server.exit();
  }
}

/** The open-file limit of this process's shell (each socket is a descriptor on both sides). */
function openFileLimit(): number | null {
  const out = spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' });
  const n = Number(out.stdout.trim());
  return Number.isFinite(n) ? n : null;
}

/** The WebSocket measurement: `sockets` subscribers in one process, a replay of `wsMinutes` pushing to each. */
async function measureSockets(s: Sizes, log: (line: string) => void) {
  const limit = openFileLimit();
  if (limit !== null && limit < s.sockets + 100) throw new Error(`server: the open-file limit (ulimit -n ${limit}) is below ${s.sockets} sockets; raise it`);
  const server = startControlled<ServerReady>(new URL('./chainlens-server.js', import.meta.url).href, [s.load.folder, s.replay.folder]);
  let clients: Controlled<{ sockets: number; subscribed: number; open_seconds: number; rss_mib: number }> | undefined;
  try {
    const ready = await server.ready;
    clients = startControlled(new URL('./ws-clients.js', import.meta.url).href, [ready.url, ready.token, String(s.sockets), WS_METHOD, '{}']);
    const opened = await clients.ready;
    if (opened.subscribed !== s.sockets) throw new Error(`server: ${opened.subscribed} of ${s.sockets} sockets subscribed`);
    const subscribedMark = await server.send<ServerMark>('mark');
    log(`  websockets: ${opened.subscribed} subscribed in ${opened.open_seconds.toFixed(1)} s; server RSS ${ready.rss_mib.toFixed(0)} -> ${subscribedMark.rss_mib.toFixed(0)} MiB`);
    await server.send('replay', `minutes=${s.wsMinutes}`);
    const report = await server.send<ServerReplayReport>('wait');
    if (report.rejected !== 0) throw new Error(`server: the replay rejected ${report.rejected} rows`);
    const commits = new Map(await server.send<[string, number][]>('commits'));
    const expected = report.blocks * s.sockets;
    // the last pushes may still be on their way: until every one is in, or nothing moves for 3 s
    let counts = await clients.send<ClientsReport>('report');
    for (let still = 0; counts.pushes < expected && still < 30;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const next = await clients.send<ClientsReport>('report');
      still = next.pushes === counts.pushes ? still + 1 : 0;
      counts = next;
    }
    const peak = await server.send<{ peak_rss_mib: number }>('peak');
    return { ready, opened, subscribedMark, report, commits, counts, expected, peak_rss_mib: peak.peak_rss_mib, open_file_limit: limit };
  } finally {
    await clients?.exit();
    await server.exit();
  }
}

const round = (v: number, digits = 3) => Number(v.toPrecision(digits));

/** The figures of one method: every measured condition a subject. */
function methodFigure(call: Call, runs: Measured[], answerBytes: number, load: Dump): Figure {
  const values: Record<string, number> = { answer_bytes: answerBytes };
  const subjects: SubjectResult[] = runs.map((m) => {
    const id = subjectId(m);
    values[`${id}_errors`] = m.run.errors + m.run.timeouts + m.run.non2xx + m.run.resets;
    values[`${id}_autocannon_p99_ms`] = m.run.autocannon_ms.p99;
    if (m.blocks !== undefined) values[`${id}_replay_blocks_per_s`] = round(m.blocks / m.run.seconds);
    if (m.loop) values[`${id}_event_loop_delay_max_ms`] = round(m.loop.max);
    return {
      id, label: `${LABELS[m.condition]}, ${m.connections} connection${m.connections > 1 ? 's' : ''}`, stats: m.run.latency, per_second: m.run.requests_per_s,
      note: `${m.run.responses.toLocaleString('en-US')} responses in ${m.run.seconds.toFixed(2)} s`,
    };
  });
  return {
    id: `server.http-${short(call.method)}`,
    family: 'server',
    title: `HTTP ${short(call.method)} (${Object.entries(call.params).map(([k, v]) => `${k} ${k === 'mint' ? 'SOL' : String(v)}`).join(', ')})`,
    size: `one POST / per request, ${answerBytes.toLocaleString('en-US')}-byte answer; engine holding the last 15 minutes of ${path.basename(load.folder)} and its replayed continuation`,
    work: { unit: 'requests', count: 1 },
    subjects, skipped: [], targets: [], values, notes: [],
  };
}

/** The family's figures. */
export async function serverFigures(options: BenchOptions, log: (line: string) => void = () => {}): Promise<Figure[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'chainlens-server-'));
  try {
    const s = await sizes(options);
    const http = await measureHttp(s, scratch, log);
    const sockets = await measureSockets(s, log);
    return [...httpFigures(s, http), socketFigure(s, sockets)];
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function httpFigures(s: Sizes, http: Awaited<ReturnType<typeof measureHttp>>): Figure[] {
  const figures = LATENCY_CALLS.map((call) =>
    methodFigure(call, http.measured.filter((m) => m.call === call), Buffer.byteLength(http.answers.get(call.method)!), s.load));
  const at = (condition: Measured['condition'], call: Call) =>
    http.measured.find((m) => m.call === call && m.condition === condition && m.connections === TARGET_CONNECTIONS)!;
  const ratioOf = (condition: Measured['condition']) => LATENCY_CALLS.map((call) => at(condition, call).run.requests_per_s / at('bare', call).run.requests_per_s);
  const ratios = LATENCY_CALLS.map((call, k) => ({ call, ratio: ratioOf('ingesting')[k]! }));
  const loopMax = (condition: Measured['condition']) => Math.max(...http.measured.filter((m) => m.condition === condition).map((m) => m.loop!.max));
  const p99s = LATENCY_CALLS.map((call) => ({ call, p99: at('ingesting', call).run.latency.p99_ms }));
  const worstRatio = ratios.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  const worstP99 = p99s.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const ingesting = http.measured.filter((m) => m.condition === 'ingesting');
  const stalled = ingesting.filter((m) => !m.replay_running);
  const errors = http.measured.reduce((sum, m) => sum + m.run.errors + m.run.timeouts + m.run.non2xx + m.run.resets, 0);
  // a run the replay did not cover to its end was not measured while ingesting: no target is met on it
  const covered = stalled.length === 0;
  const targets: Target[] = [
    {
      text: `server-rps-ratio: requests/s >= ${SERVER_TARGETS.rpsRatio}x the bare node:http server's at ${TARGET_CONNECTIONS} connections while a replay ingests (the worst method)`,
      kind: 'speedup', against: 'server-rps-ratio', required: SERVER_TARGETS.rpsRatio, measured: worstRatio.ratio,
      met: covered && worstRatio.ratio >= SERVER_TARGETS.rpsRatio,
    },
    {
      text: `server-p99-10c: p99 < ${SERVER_TARGETS.p99Ms} ms at ${TARGET_CONNECTIONS} connections while a replay ingests (the worst method)`,
      kind: 'max-latency', against: 'server-p99-10c', required: SERVER_TARGETS.p99Ms, measured: worstP99.p99,
      met: covered && worstP99.p99 < SERVER_TARGETS.p99Ms,
    },
  ];
  figures.push({
    id: 'server.http-summary',
    family: 'server',
    title: `HTTP server, every method at ${TARGET_CONNECTIONS} connections while a replay ingests`,
    size: `${LATENCY_CALLS.length} methods, limit 1; ${path.basename(s.load.folder)} loaded, then ${path.basename(s.replay.folder)} replayed from where it ends`,
    work: { unit: 'requests', count: 1 },
    subjects: [], skipped: [], targets,
    values: {
      worst_rps_ratio: round(worstRatio.ratio), worst_rps_ratio_method: short(worstRatio.call.method),
      median_rps_ratio: round(median(ratios.map((r) => r.ratio))),
      worst_p99_ms: round(worstP99.p99), worst_p99_method: short(worstP99.call.method),
      median_p99_ms: round(median(p99s.map((p) => p.p99))),
      median_rps_ingesting: Math.round(median(LATENCY_CALLS.map((c) => at('ingesting', c).run.requests_per_s))),
      median_rps_idle: Math.round(median(LATENCY_CALLS.map((c) => at('idle', c).run.requests_per_s))),
      median_rps_bare: Math.round(median(LATENCY_CALLS.map((c) => at('bare', c).run.requests_per_s))),
      median_rps_idle_over_bare: round(median(ratioOf('idle'))),
      worst_rps_ratio_idle: round(Math.min(...ratioOf('idle'))),
      best_rps_ratio_idle: round(Math.max(...ratioOf('idle'))),
      worst_p99_ms_idle: round(Math.max(...LATENCY_CALLS.map((c) => at('idle', c).run.latency.p99_ms))),
      median_rps_live: Math.round(median(LATENCY_CALLS.map((c) => at('live', c).run.requests_per_s))),
      worst_rps_ratio_live: round(Math.min(...ratioOf('live'))),
      median_rps_ratio_live: round(median(ratioOf('live'))),
      worst_p99_ms_live: round(Math.max(...LATENCY_CALLS.map((c) => at('live', c).run.latency.p99_ms))),
      median_p99_ms_live: round(median(LATENCY_CALLS.map((c) => at('live', c).run.latency.p99_ms))),
      event_loop_delay_max_ms_ingesting: round(loopMax('ingesting')),
      event_loop_delay_max_ms_live: round(loopMax('live')),
      replay_blocks_per_s_while_measured: round(http.ingesting.blocks / http.ingesting.seconds),
      replay_blocks_while_measured: http.ingesting.blocks,
      replay_clock_at_end: http.ingesting.time,
      live_replay_blocks_per_s: round(http.live.blocks / http.live.seconds),
      runs_not_covered_by_the_replay: stalled.length,
      warm_replay_blocks: http.warm.blocks,
      warm_replay_s: round(http.warm.seconds),
      loaded_blocks: http.ready.loaded_blocks,
      errors_and_non_2xx: errors,
      server_peak_rss_mib: Math.round(http.peak_rss_mib),
    },
    notes: [
      `Three processes: the server under test (createEngine, engine.load, serve on a free loopback port, a bearer token), the bare node:http server, and the load generator (autocannon ${AUTOCANNON_VERSION}, POST / with keep-alive connections, no pipelining) in the bench runner. Each run: ${s.limit.seconds} s per server, method and connection count, after ${s.warmup} warm-up requests per method on both servers.`,
      `Before measuring, the server loads ${path.basename(s.load.folder)} (${http.ready.loaded_blocks} blocks) and replays ${path.basename(s.replay.folder)} from where that dump ends (speed Infinity, retain 15m, the replay default) for ${s.warmMinutes} simulated minutes (${http.warm.blocks} blocks in ${http.warm.seconds.toFixed(0)} s, past the first retention prune, whose one-time cost is not the steady state), then pauses it: the idle runs and the bare server's interleave, method by method. Then the replay resumes and the same runs are repeated while it ingests as fast as it can (${http.ingesting.blocks} blocks in ${http.ingesting.seconds.toFixed(0)} s, ${(http.ingesting.blocks / http.ingesting.seconds).toFixed(0)} blocks/s, sharing the server's thread with the requests and the machine's 2 cores with the load generator). Last, that replay is stopped and a new one goes on from its newest block at speed 1 (the chain's own pace, 2.5 blocks/s: what a live feed asks) for the ${TARGET_CONNECTIONS}-connection runs once more (${http.live.blocks} blocks in ${http.live.seconds.toFixed(0)} s).`,
      `Measured: all ${LATENCY_CALLS.length} methods at ${TARGET_CONNECTIONS} connections (the targets' condition) idle, while ingesting at speed Infinity and at speed 1, and against the bare server; ${REPRESENTATIVE.map(short).join(', ')} also at 1 and 100 connections (idle, speed Infinity, bare): ${http.measured.length} runs. The server process's event-loop delay (perf_hooks, 5 ms resolution) is sampled over each run under a replay: how long a ready request could wait for the thread.`,
      'The bare server answers each request body with the bytes chainlens answered to it (captured once, after the warm-up replay), with the same status and Content-Type/Content-Length headers: the transport\'s own limit on this machine, with the load generator sharing it. Its latency is the floor of any server here.',
      'Requests/s: 2xx responses over the run\'s time. Latency: each response\'s time from autocannon (send to last byte, fractional ms), median and p99 over all of a run\'s responses. Errors (connection errors, timeouts, non-2xx, resets) are counted per run: ' + (errors === 0 ? 'none in this run.' : `${errors} in this run (see the per-method values).`),
      'Targets: the worst method\'s ratio of requests/s to the bare server\'s, and the worst method\'s p99, both at 10 connections while the replay ingests.',
    ],
  });
  return figures;
}

function socketFigure(s: Sizes, ws: Awaited<ReturnType<typeof measureSockets>>): Figure {
  const { counts, commits, report, expected } = ws;
  const delays: number[] = [];
  let firstCommit = Infinity;
  let lastArrival = 0;
  for (const [slot, , , last] of counts.slots) {
    const commit = commits.get(slot);
    if (commit === undefined) continue;
    delays.push(last - commit);
    firstCommit = Math.min(firstCommit, commit);
    lastArrival = Math.max(lastArrival, last);
  }
  if (delays.length === 0) throw new Error('server: no replayed block reached the WebSockets');
  const delivered = counts.pushes;
  const fraction = expected > 0 ? delivered / expected : 0;
  const everySocket = counts.pushes_min === report.blocks && counts.pushes_max === report.blocks && counts.ended === 0 && counts.closed === 0;
  const spanS = (lastArrival - firstCommit) / 1000;
  const stats = statsOfSamples(delays);
  return {
    id: 'server.websocket-subscribers',
    family: 'server',
    title: `${s.sockets.toLocaleString('en-US')} WebSocket subscribers to ${short(WS_METHOD)}, every push counted`,
    size: `${s.sockets.toLocaleString('en-US')} sockets in one client process; a replay of ${report.blocks} blocks (${s.wsMinutes} simulated minute${s.wsMinutes === 1 ? '' : 's'} of ${path.basename(s.replay.folder)}, speed Infinity)`,
    work: { unit: 'pushes', count: expected },
    subjects: [{
      id: 'chainlens', label: 'chainlens serve: a block\'s commit to its last socket (ms, per block)', stats,
      per_second: spanS > 0 ? delivered / spanS : 0, note: `${report.blocks} blocks`,
    }],
    skipped: [],
    targets: [{
      text: `ws-1000: every push delivered to every one of ${s.sockets.toLocaleString('en-US')} sockets (pushes received / blocks x sockets)`,
      kind: 'min-fraction', against: 'ws-1000', required: 1, measured: fraction, met: everySocket && fraction === 1,
    }],
    values: {
      sockets: s.sockets,
      subscribed: ws.opened.subscribed,
      sockets_open_s: round(ws.opened.open_seconds),
      blocks_replayed: report.blocks,
      pushes_expected: expected,
      pushes_delivered: delivered,
      pushes_min_per_socket: counts.pushes_min,
      pushes_max_per_socket: counts.pushes_max,
      subscriptions_ended_by_server: counts.ended,
      sockets_closed: counts.closed,
      socket_errors: counts.errors,
      pushes_per_s_delivered: round(spanS > 0 ? delivered / spanS : 0),
      replay_blocks_per_s: round(report.blocks_per_second),
      commit_to_last_socket_p50_ms: round(stats.median_ms),
      commit_to_last_socket_p99_ms: round(percentile(delays, 99)),
      commit_to_last_socket_max_ms: round(stats.max_ms),
      server_rss_mib_before_sockets: Math.round(ws.ready.rss_mib),
      server_rss_mib_subscribed: Math.round(ws.subscribedMark.rss_mib),
      server_peak_rss_mib_replaying: Math.round(ws.peak_rss_mib),
      clients_rss_mib: Math.round(counts.rss_mib),
      clients_cpu_s: round(counts.cpu_s),
      open_file_limit: ws.open_file_limit,
    },
    notes: [
      `A fresh server process loads ${path.basename(s.load.folder)}; a second process opens ${s.sockets.toLocaleString('en-US')} WebSockets to it (ws, a hundred handshakes at a time, the bearer token in the Authorization header) and subscribes each to ${WS_METHOD} (one BlockFees point per block); then the server replays the next ${s.wsMinutes} simulated minute${s.wsMinutes === 1 ? '' : 's'} of ${path.basename(s.replay.folder)} at speed Infinity.`,
      'Every socket counts its pushes; the target holds when each socket got one push per replayed block and no subscription was ended (the engine ends a subscriber that falls 1,000 pushes or 16 MiB behind) nor socket closed. Delivery time: per block, from the moment the server process\'s own subscription to the same method got the block (its commit) to the arrival at the last socket, wall clocks of the two processes on one machine. Pushes/s: all pushes over the span from the first commit to the last arrival.',
      `The open-file limit (ulimit -n) was ${ws.open_file_limit ?? 'unknown'}: each socket is a descriptor in both processes.`,
    ],
  };
}
