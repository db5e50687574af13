/**
 * A fuzz campaign: an engine holding real data, its four transports, and `cases` generated groups
 * of concurrent bodies per transport, each reply judged (exchange.ts). Returns the figures that
 * docs/reliability.md reports; `npm run fuzz` prints them, the test suite runs a bounded one.
 */
import { MessageChannel } from 'node:worker_threads';
import fc from 'fast-check';
import { generateBlocks, generateTokens } from '../src/generate/market.js';
import { connect, createEngine, type Engine } from '../src/index.node.js';
import type { ResponseEntry } from '../src/rpc/dispatch.js';
import { echo } from '../src/rpc/echo.js';
import { group, TRANSPORTS, type Transport } from './envelopes.js';
import { judge, prepare, type Prepared, type Verdict } from './exchange.js';

/** Counts of one transport's run. */
export interface TransportFigures {
  transport: Transport;
  /** Bodies sent. */
  cases: number;
  verdicts: Record<Verdict, number>;
  /** Error codes answered, by code. */
  codes: Record<string, number>;
  /** Up to 5 bodies per bad verdict, as JSON-ish text, to reproduce. */
  examples: { verdict: Verdict; body: string }[];
  /** The slowest body's answer, ms. */
  slowestMs: number;
}

export interface CampaignOptions {
  /** Bodies per transport. */
  cases: number;
  seed: number;
  /** A body with no answer after this long is a hang (default 10 s). */
  hangMs?: number;
}

const VERDICTS: Verdict[] = ['ok', 'refused', 'crash', 'hang', 'misrouted', 'internal', 'malformed', 'oversized'];

/** An engine with a few minutes of generated blocks, so that methods answer real data. */
async function fuzzEngine(): Promise<Engine> {
  const engine = await createEngine({ minSamples: 1 });
  const blocks = [...generateBlocks({ blocks: 30, txPerBlock: 40, seed: 'fuzz' })];
  await engine.ingest({
    tokens: generateTokens(),
    blocks: blocks.map((b) => b.block),
    transactions: blocks.flatMap((b) => b.transactions),
    trades: blocks.flatMap((b) => b.trades),
  });
  return engine;
}

/** Runs the campaign on every transport; `onProgress` hears each finished transport. */
export async function runCampaign(options: CampaignOptions, onProgress?: (f: TransportFigures) => void): Promise<TransportFigures[]> {
  const engine = await fuzzEngine();
  const { port1, port2 } = new MessageChannel();
  engine.serve(port1);
  const client = connect(port2);
  const send: Record<Transport, (payload: unknown) => Promise<ResponseEntry[]>> = {
    'local-object': (p) => engine.request(p),
    'local-text': (p) => engine.request(p),
    'port-object': (p) => client.request(p),
    'port-text': (p) => client.request(p),
  };
  // anything thrown outside a request's own promise is a crash too
  let stray = 0;
  const onStray = () => void stray++;
  process.on('unhandledRejection', onStray);
  process.on('uncaughtException', onStray);
  let nextId = 1;
  const figures: TransportFigures[] = [];
  try {
    for (const [k, transport] of TRANSPORTS.entries()) {
      const f: TransportFigures = {
        transport, cases: 0, verdicts: Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<Verdict, number>, codes: {}, examples: [], slowestMs: 0,
      };
      const strayBefore = stray;
      // groups of up to 8 bodies; samples drawn in slices so that a long run holds little at once
      for (let slice = 0; f.cases < options.cases; slice++) {
        const groups = fc.sample(group(transport), { numRuns: 50, seed: options.seed + k * 1_000_003 + slice });
        for (const bodies of groups) {
          if (f.cases >= options.cases) break;
          const taken = bodies.slice(0, options.cases - f.cases);
          const batch = taken.map(({ body, damage }) => prepare(body, transport, damage, () => nextId++));
          await Promise.all(batch.map((sent, i) => exchange(send[transport], sent, options.hangMs ?? 10_000, f, taken[i]!.body)));
          f.cases += batch.length;
        }
      }
      f.verdicts.crash += stray - strayBefore;
      figures.push(f);
      onProgress?.(f);
    }
  } finally {
    process.off('unhandledRejection', onStray);
    process.off('uncaughtException', onStray);
    client.close();
    port1.close();
    await engine.close();
  }
  return figures;
}

async function exchange(
  send: (payload: unknown) => Promise<ResponseEntry[]>, sent: Prepared, hangMs: number, f: TransportFigures, shape: unknown,
): Promise<void> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<{ timedOut: true }>((resolve) => (timer = setTimeout(() => resolve({ timedOut: true }), hangMs)));
  let outcome: { reply?: unknown; error?: unknown; timedOut?: boolean };
  try {
    outcome = await Promise.race([send(sent.payload).then((reply) => ({ reply })), timeout]);
  } catch (error) {
    outcome = { error: error ?? 'undefined rejection' };
  } finally {
    clearTimeout(timer);
  }
  f.slowestMs = Math.max(f.slowestMs, performance.now() - started);
  const verdict = judge(sent, outcome);
  f.verdicts[verdict]++;
  for (const entry of Array.isArray(outcome.reply) ? outcome.reply : []) {
    const code = (entry as { error?: { code?: unknown } })?.error?.code;
    if (code !== undefined) f.codes[String(code)] = (f.codes[String(code)] ?? 0) + 1;
  }
  if (verdict !== 'ok' && verdict !== 'refused' && f.examples.filter((e) => e.verdict === verdict).length < 5) {
    f.examples.push({ verdict, body: describe(typeof sent.payload === 'string' ? sent.payload : shape) });
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 500) : echo(value, 500);
}

/** Bodies whose verdict is a failure (crash, hang, misrouted, internal, malformed, oversized). */
export function failures(f: TransportFigures): number {
  return f.verdicts.crash + f.verdicts.hang + f.verdicts.misrouted + f.verdicts.internal + f.verdicts.malformed + f.verdicts.oversized;
}
