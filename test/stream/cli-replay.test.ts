/** `chainlens replay` as a user runs it (the compiled bin): pushed data points as NDJSON, exit statuses. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

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

  it('--retain takes seconds or all (pruning itself: test/store/retention.test.ts)', () => {
    const lines = (retain: string) => {
      const result = run(['replay', '--data', dump, '--speed', 'Infinity', '--retain', retain, 'chain::priorityfee::fee', '{"window":"1m"}']);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout.trim().split('\n').length).toBeGreaterThan(1);
      return result.stdout;
    };
    expect(lines('all')).toBe(lines('300'));
  });
});
