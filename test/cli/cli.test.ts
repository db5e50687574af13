/**
 * The `chainlens` command as a user runs it (the compiled bin, in a child process, stdout and stderr
 * piped): help, usage mistakes, generate, query, rpc, demo, what a load reports, and the exit statuses.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../src/methods/index.js';

const BIN = fileURLToPath(new URL('../../bin/chainlens.js', import.meta.url));
const run = (args: string[], input?: string, home = tmpdir()) =>
  spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', env: { ...process.env, CHAINLENS_HOME: home } });

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

  it('--fail-on-error: exit 3 when a response holds an error entry', () => {
    const lines = ['{"jsonrpc":"2.0","id":1,"method":"chain::market::token","params":{}}', '{"jsonrpc":"2.0","id":2,"method":"chain::market::tokn"}'];
    const failed = run(['rpc', '--data', dump, '--fail-on-error'], lines.join('\n') + '\n');
    expect(failed.status, failed.stderr).toBe(3);
    expect(failed.stdout.trim().split('\n')).toHaveLength(2);
    expect(run(['rpc', '--data', dump, '--fail-on-error'], lines[0] + '\n').status).toBe(0);
  });

  it('an unknown method or bad params is answered before any data is read', () => {
    // the path does not exist: reading it would fail the load (exit 1)
    const missing = join(dump, 'nope');
    const unknown = run(['query', '--data', missing, 'chain::market::trade']);
    expect(unknown.status, unknown.stderr).toBe(0);
    expect(JSON.parse(unknown.stdout)[0]).toMatchObject({ id: 1, error: { code: -32601, data: { suggestion: 'chain::market::trades' } } });
    const bad = run(['query', '--data', missing, '--fail-on-error', 'chain::market::trades', '{"limit":0}']);
    expect(bad.status).toBe(3);
    expect(JSON.parse(bad.stdout)[0].error).toMatchObject({ code: -32602, data: { param: 'limit' } });
    expect(run(['query', '--data', missing, '--at', 'yesterday', 'chain::market::trades']).stdout).toContain('-32602');
  });
});

describe('chainlens help and usage mistakes', () => {
  it('--help, -h per command and --version exit 0 on stdout', () => {
    const help = run(['--help']);
    expect(help.status).toBe(0);
    for (const command of ['demo', 'generate', 'query', 'rpc', 'replay']) expect(help.stdout).toContain(`  ${command} `);
    expect(help.stdout).toMatch(/exit status: 0 .* 1 .* 2 .* 3 /);
    const query = run(['query', '-h']);
    expect(query.status).toBe(0);
    expect(query.stdout).toContain('usage: chainlens query [options] METHOD [PARAMS_JSON]');
    expect(query.stdout).toContain('--data PATH');
    expect(query.stdout).toContain('--fail-on-error');
    const demo = run(['demo', '--help']);
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toContain('--minutes N');
    const version = run(['--version']);
    expect(version.status).toBe(0);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  it('an unknown option, a missing value or an unknown command is a usage error naming it and the closest valid one', () => {
    const typo = run(['query', '--dta', '/somewhere', 'chain::market::trades']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown option --dta; did you mean --data?');
    expect(typo.stdout).toBe('');
    const missing = run(['query', 'chain::market::trades', '--data']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('option --data needs a value');
    const flagValue = run(['rpc', '--fail-on-error=yes']);
    expect(flagValue.status).toBe(2);
    expect(flagValue.stderr).toContain('option --fail-on-error takes no value');
    const command = run(['qurey', 'chain::market::trades']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('unknown command qurey; did you mean query?');
    expect(run([]).status).toBe(2);
    const extra = run(['query', 'chain::market::trades', '{}', 'more']);
    expect(extra.status).toBe(2);
    expect(extra.stderr).toContain('unexpected arguments: more');
  });

  it('generate takes the market-size flags and refuses bad values', () => {
    const out = mkdtempSync(join(tmpdir(), 'chainlens-cli-size-'));
    const sized = run(['generate', '--out', out, '--minutes', '0.1', '--tx-per-block', '100', '--format', 'ndjson',
      '--profile', 'mainnet', '--pairs', '10', '--tokens', '8', '--swaps-per-second', '20']);
    expect(sized.status, sized.stderr).toBe(0);
    expect(sized.stdout).toMatch(/, 8 tokens \(ndjson\)/);
    const profile = run(['generate', '--out', out, '--profile', 'huge']);
    expect(profile.status).toBe(2);
    expect(profile.stderr).toContain('--profile must be one of default, mainnet');
    expect(run(['generate', '--out', out, '--pairs', '1.5']).status).toBe(2);
    expect(run(['generate', '--out', out, '--swaps-per-second', '0']).status).toBe(2);
    // options the generator refuses (two pairs cannot hold the quotes it needs) write no file
    const empty = mkdtempSync(join(tmpdir(), 'chainlens-cli-refused-'));
    expect(run(['generate', '--out', empty, '--profile', 'mainnet', '--pairs', '2']).status).toBe(2);
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe('chainlens load reports', () => {
  let dump: string;
  let bad: string;
  beforeAll(() => {
    // a small dump, and a copy whose trades.csv has three malformed rows (base_amount is not a number)
    dump = mkdtempSync(join(tmpdir(), 'chainlens-cli-bad-'));
    const made = run(['generate', '--out', dump, '--minutes', '0.1', '--seed', '3', '--format', 'csv', '--tx-per-block', '100']);
    expect(made.status, made.stderr).toBe(0);
    bad = mkdtempSync(join(tmpdir(), 'chainlens-cli-bad-'));
    cpSync(dump, bad, { recursive: true });
    const lines = readFileSync(join(dump, 'trades.csv'), 'utf8').split('\n');
    const column = lines[0].split(',').indexOf('base_amount');
    for (const i of [2, 4, 6]) {
      const fields = lines[i].split(',');
      fields[column] = 'lots';
      lines[i] = fields.join(',');
    }
    writeFileSync(join(bad, 'trades.csv'), lines.join('\n'));
  });

  it('prints the summary and every rejection on stderr (piped), and --rejections writes them as NDJSON', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'chainlens-cli-rejections-')), 'rejections.ndjson');
    const result = run(['query', '--data', bad, '--rejections', file, 'chain::market::trades', '{"limit":1}']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/loaded .*: \d+ blocks \(\d+ rows, 3 rejected, \d+ warnings?\) in [\d.]+ s: \d+ rows\/s/);
    for (const row of [3, 5, 7]) expect(result.stderr).toContain(`rejected trades.csv:${row} base_amount: not a number: "lots"`);
    const written = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(written).toEqual([3, 5, 7].map((row) => ({ source: 'trades.csv', row, field: 'base_amount', message: 'not a number: "lots"' })));
  });

  it('prints every warning of the load', () => {
    // a raw getBlock result with no slot anywhere: the loader takes parent_slot + 1 and warns
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-cli-raw-'));
    writeFileSync(join(dir, 'block.json'), JSON.stringify({ blockTime: 1767225600, parentSlot: 389000000, blockHeight: 1, transactions: [] }));
    const result = run(['query', '--data', dir, 'chain::market::token']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\d+ warnings?\)/);
    expect(result.stderr).toMatch(/warning: block\.json.*slot not recorded.*389000001/);
  });

  it('skips a stray file of a --data folder with a warning naming it; --strict refuses it before loading', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-cli-stray-'));
    cpSync(dump, dir, { recursive: true });
    writeFileSync(join(dir, 'notes.txt'), 'not a table\n');
    const lenient = run(['query', '--data', dir, 'chain::market::trades', '{"limit":1}']);
    expect(lenient.status, lenient.stderr).toBe(0);
    expect(JSON.parse(lenient.stdout)[0].result).toHaveLength(1);
    expect(lenient.stderr).toMatch(/warning: skipped .*notes\.txt/);
    for (const command of [['query', 'chain::market::trades'], ['replay', '--speed', 'Infinity', 'chain::market::trades']]) {
      const strict = run([command[0]!, '--data', dir, '--strict', ...command.slice(1)]);
      expect(strict.status, strict.stderr).toBe(1);
      expect(strict.stderr).toContain('notes.txt');
      expect(strict.stdout).toBe('');
    }
  });
});

describe('chainlens demo', () => {
  it('generates the demo market under CHAINLENS_HOME, loads it, calls every method and exits 0', () => {
    const home = mkdtempSync(join(tmpdir(), 'chainlens-cli-home-'));
    const result = run(['demo', '--minutes', '0.2'], undefined, home);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('generating the demo market');
    expect(result.stderr).toMatch(/loaded .*demo-0\.2m-seed1.*: \d+ blocks \(\d+ rows, 0 rejected, 0 warnings/);
    expect(existsSync(join(home, 'demo-0.2m-seed1', 'complete'))).toBe(true);
    for (const method of METHODS) expect(result.stdout).toMatch(new RegExp(`^${method.name} \\{.*\\} -> [1-9]\\d* data points?$`, 'm'));
  });
});
