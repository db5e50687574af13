/**
 * `chainlens ui` as a user runs it (the compiled bin in a child process, loopback only): serves a
 * folder and stops on SIGTERM with exit 0; refuses a folder without index.html and a busy port with
 * a clear message; opens the URL with the platform's opener, and only hints when there is none.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/chainlens.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
const PAGE = '<!doctype html><title>chainlens ui test</title>';

interface Running {
  child: ChildProcess;
  url: string;
  stderr: string[];
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];

/** Starts `chainlens ui` and waits (at most 15 s) for its URL line on stdout. */
async function startUi(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'ui', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL line within 15 s: ${stderr.join('\n')}`)), 15_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^chainlens ui: (http:\/\/\S+) \(Ctrl-C to stop\)$/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`ui exited early (${code}): ${stderr.join('\n')}`)));
  });
  return { child, url, stderr, exited };
}

describe('chainlens ui', () => {
  let app: string;
  let empty: string;
  beforeAll(() => {
    app = mkdtempSync(join(tmpdir(), 'chainlens-ui-'));
    writeFileSync(join(app, 'index.html'), PAGE);
    empty = mkdtempSync(join(tmpdir(), 'chainlens-ui-empty-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  afterAll(() => {
    rmSync(app, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('serves --dir, prints its URL, and exits 0 on SIGTERM', { timeout: 30_000 }, async () => {
    const ui = await startUi(['--port', '0', '--no-open', '--dir', app]);
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const response = await fetch(ui.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toBe(PAGE);
    ui.child.kill('SIGTERM');
    expect(await ui.exited).toBe(0);
    expect(ui.stderr).toEqual([]); // --no-open: no browser, no hint
  });

  it('exits 1 naming the missing index.html when --dir holds no app', () => {
    const result = run(['ui', '--no-open', '--port', '0', '--dir', empty]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(join(empty, 'index.html'));
    expect(result.stderr).toContain('npm run build');
    expect(result.stdout).toBe('');
  });

  it('exits 1 with a clear message when the port is in use, and 2 on a bad --port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = busy.address() as AddressInfo;
      const result = run(['ui', '--no-open', '--port', String(port), '--dir', app]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`port ${port} is in use; pass --port 0 for a free one`);
    } finally {
      busy.close();
    }
    const bad = run(['ui', '--port', '70000', '--dir', app]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--port must be a port number');
  });

  describe.runIf(process.platform === 'linux')('opening the browser (Linux: xdg-open)', () => {
    let bin: string;
    beforeAll(() => {
      bin = mkdtempSync(join(tmpdir(), 'chainlens-ui-bin-'));
    });
    afterAll(() => rmSync(bin, { recursive: true, force: true }));

    it('runs xdg-open with the URL', { timeout: 30_000 }, async () => {
      const opened = join(bin, 'opened.txt');
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > '${opened}'\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const ui = await startUi(['--port', '0', '--dir', app], { ...process.env, PATH: bin, DISPLAY: ':0' });
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, 'utf8').trim() : ''), { timeout: 10_000 }).toBe(ui.url);
      ui.child.kill('SIGTERM');
      expect(await ui.exited).toBe(0);
      expect(ui.stderr).toEqual([]);
    });

    it('without an opener (or a display), only prints a hint and keeps serving', { timeout: 30_000 }, async () => {
      for (const env of [{ PATH: empty, DISPLAY: ':0' }, { DISPLAY: '', WAYLAND_DISPLAY: '' }]) {
        const ui = await startUi(['--port', '0', '--dir', app], { ...process.env, ...env });
        await expect.poll(() => ui.stderr.join('\n'), { timeout: 10_000 }).toContain(`open ${ui.url} by hand`);
        expect(await (await fetch(ui.url)).text()).toBe(PAGE);
        ui.child.kill('SIGTERM');
        expect(await ui.exited).toBe(0);
      }
    });
  });
});
