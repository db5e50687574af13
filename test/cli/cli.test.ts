/**
 * The `chainlens` command as a user runs it (the compiled bin, in a child process): generate, query,
 * rpc, and the exit statuses.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/chainlens.js', import.meta.url));
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', env: { ...process.env, CHAINLENS_HOME: tmpdir() } });

describe('chainlens command', () => {
  let dump: string;
  beforeAll(() => {
    dump = mkdtempSync(join(tmpdir(), 'chainlens-cli-'));
    const result = run(['generate', '--out', dump, '--minutes', '0.2', '--seed', '7', '--format', 'csv', '--tx-per-block', '200']);
    expect(result.status, result.stderr).toBe(0);
  });

  it('generate writes one file per table', () => {
    expect(readdirSync(dump).sort()).toEqual(['blocks.csv', 'tokens.csv', 'trades.csv', 'transactions.csv']);
  });

  it('query prints the response array and exits 0, also for an error entry', () => {
    const ok = run(['query', '--data', dump, 'chain::market::trades', '{"limit":2}']);
    expect(ok.status, ok.stderr).toBe(0);
    const [entry] = JSON.parse(ok.stdout);
    expect(entry).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(entry.result).toHaveLength(2);
    const bad = run(['query', '--data', dump, 'chain::market::trades', '{"limit":0}']);
    expect(bad.status).toBe(0);
    expect(JSON.parse(bad.stdout)[0].error.code).toBe(-32602);
  });

  it('query --at answers as of that time', () => {
    const all = JSON.parse(run(['query', '--data', dump, 'chain::market::trades', '{"limit":1000}']).stdout)[0].result;
    const cut = all[Math.floor(all.length / 2)].timestamp;
    const asOf = JSON.parse(run(['query', '--data', dump, '--at', cut, 'chain::market::trades', '{"limit":1000}']).stdout)[0].result;
    expect(asOf.length).toBeGreaterThan(0);
    expect(asOf.every((t: { timestamp: string }) => t.timestamp < cut)).toBe(true);
    expect(asOf).toEqual(all.filter((t: { timestamp: string }) => t.timestamp < cut));
  });

  it('rpc answers one body per line until EOF', () => {
    const lines = [
      '{"jsonrpc":"2.0","id":1,"method":"chain::market::token","params":{}}',
      '[{"jsonrpc":"2.0","id":2,"method":"chain::market::ingestion","params":{"limit":1}},{"jsonrpc":"2.0","method":"x"}]',
      'not json',
    ];
    const result = run(['rpc', '--data', dump], lines.join('\n') + '\n');
    expect(result.status, result.stderr).toBe(0);
    const out = result.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(out).toHaveLength(3);
    expect(out[0][0].result.map((t: { symbol: string }) => t.symbol).sort()).toEqual(['LENS', 'PUPS', 'SOL', 'USDC']);
    expect(out[1]).toHaveLength(1);
    expect(out[1][0].result).toHaveLength(1);
    expect(out[2][0].error.code).toBe(-32700);
  });

  it('exits non-zero with a clear message when loading fails, and 2 on a usage mistake', () => {
    const missing = run(['query', '--data', join(dump, 'nope'), 'chain::market::token']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('loading failed');
    expect(missing.stderr).toContain('nope');
    const usage = run(['generate']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--out');
  });
});
