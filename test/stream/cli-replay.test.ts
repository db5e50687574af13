/**
 * `chainlens replay` as a user runs it (the compiled bin): pushed data points as NDJSON, exit
 * statuses. --retain runs the command in process too, to ask its engine an as-of question at the end.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../src/index.node.js';

/**
 * The engines the in-process command makes: before one closes, the as-of fee answer 30 s after the
 * replay's first block, or its error, goes to `asOf` (the command itself prints only the pushes).
 */
const { asOf } = vi.hoisted(() => ({ asOf: [] as ({ ok: true; result: unknown[] } | { ok: false; error: unknown })[] }));
vi.mock('../../src/index.node.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/index.node.js')>();
  const createEngine: typeof actual.createEngine = async (...args) => {
    const engine: Engine = await actual.createEngine(...args);
    let first: string | undefined; // the replay's first block's time
    await engine.subscribe('chain::market::ingestion', {}, (push) => void (first ??= push.block?.timestamp));
    const close = engine.close.bind(engine);
    engine.close = async () => {
      const at = Math.floor(Date.parse(first!) / 1000) + 30;
      asOf.push(await engine.call('chain::priorityfee::fee', { window: '1m', at }).then(
        (result) => ({ ok: true as const, result }), (error: { rpc?: unknown }) => ({ ok: false as const, error: error.rpc ?? error }),
      ));
      return close();
    };
    return engine;
  };
  return { ...actual, createEngine };
});

const BIN = fileURLToPath(new URL('../../bin/chainlens.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CHAINLENS_HOME: tmpdir() } });

describe('chainlens replay', () => {
  let dump: string;
  beforeAll(() => {
    dump = mkdtempSync(join(tmpdir(), 'chainlens-cli-replay-'));
    const result = run(['generate', '--out', dump, '--minutes', '0.2', '--seed', '7', '--format', 'csv', '--tx-per-block', '100']);
    expect(result.status, result.stderr).toBe(0);
  });

  it('prints every pushed data point as one JSON line, in block order, and a summary on stderr', () => {
    const replay = run(['replay', '--data', dump, '--speed', 'Infinity', 'chain::priorityfee::block', '{"limit":1}']);
    expect(replay.status, replay.stderr).toBe(0);
    const points = replay.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const query = run(['query', '--data', dump, 'chain::priorityfee::block', '{"limit":1000}']);
    const all = JSON.parse(query.stdout)[0].result;
    expect(points.length).toBe(all.length);
    expect(points).toEqual([...all].reverse());
    expect(replay.stderr).toMatch(new RegExp(`replayed ${all.length} blocks .* blocks/s`));
  });

  it('from/to and a finite speed', () => {
    const all = run(['replay', '--data', dump, '--speed', 'inf', 'chain::market::ingestion']).stdout.trim().split('\n').map((l) => JSON.parse(l));
    const from = all[3].timestamp;
    const to = all[8].timestamp;
    const part = run(['replay', '--data', dump, '--speed', '50', '--from', from, '--to', to, 'chain::market::ingestion']);
    expect(part.status, part.stderr).toBe(0);
    expect(part.stdout.trim().split('\n').map((l) => JSON.parse(l).slot)).toEqual(all.slice(3, 8).map((p: { slot: string }) => p.slot));
  });

  it('a bad method or params is an error entry (exit 0); a bad flag is a usage error (exit 2)', () => {
    const bad = run(['replay', '--data', dump, 'chain::market::ohlcv', '{"window":"7m"}']);
    expect(bad.status).toBe(0);
    expect(JSON.parse(bad.stdout)[0].error).toMatchObject({ code: -32602, data: { param: 'window' } });
    expect(run(['replay', '--data', dump, '--speed', '-1', 'chain::market::trades']).status).toBe(2);
    expect(run(['replay', '--data', dump]).status).toBe(2);
    const short = run(['replay', '--data', dump, '--retain', '1m', 'chain::market::trades']);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/retain must be at least 300 s/);
  });

  it('--retain takes seconds or all: the same pushes, and the as-of answers that need pruned transactions refused', async () => {
    // 7 minutes: with --retain 300 the transactions of the first minute or more are pruned by the end
    const long = mkdtempSync(join(tmpdir(), 'chainlens-cli-retain-'));
    const generated = run(['generate', '--out', long, '--minutes', '7', '--seed', '7', '--format', 'parquet', '--tx-per-block', '4']);
    expect(generated.status, generated.stderr).toBe(0);
    const { main } = await import('../../src/cli/main.js');
    const replay = async (retain: string) => {
      const out: string[] = [];
      const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const status = await main(['replay', '--data', long, '--speed', 'Infinity', '--retain', retain, 'chain::priorityfee::fee', '{"window":"1m"}']);
        expect(status).toBe(0);
      } finally {
        write.mockRestore();
        quiet.mockRestore();
      }
      const points = out.join('').trim().split('\n').map((line) => JSON.parse(line) as { window_start: string });
      expect(points.length).toBeGreaterThan(1000); // one point or two per block
      // the engine the command ran, as the replay left it (captured before the command closed it)
      expect(asOf.length).toBe(1);
      return { points, asOf: asOf.pop()! };
    };
    const all = await replay('all');
    const pruned = await replay('300');
    expect(pruned.points).toEqual(all.points);
    expect(all.asOf).toMatchObject({ ok: true });
    expect((all.asOf as { result: unknown[] }).result.length).toBeGreaterThan(0);
    expect(pruned.asOf).toMatchObject({ ok: false, error: { code: -32602, data: { param: 'at' } } });
    // seconds are seconds: one short of 5 minutes is refused
    const short = run(['replay', '--data', long, '--retain', '299', 'chain::market::trades']);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/retain must be at least 300 s/);
    rmSync(long, { recursive: true, force: true });
  }, 180_000);
});
