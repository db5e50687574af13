/**
 * serveStaticFiles on a temp folder over loopback: content types and headers, folders and their
 * index.html, HEAD, 405, 304, traversal attempts (raw, percent-encoded, through a symlink) that
 * must not reach the file beside the root, bad percent-encoding, 404, and a prompt close().
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStaticFiles, type StaticFilesServer } from '../../src/server/static-files.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with `path` sent as is (fetch would resolve `..` before sending). */
function raw(port: number, path: string, method = 'GET', headers: Record<string, string> = {}, agent: Agent | false = false): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const SECRET = 'the file beside the root';

describe('serveStaticFiles', () => {
  let top: string;
  let root: string;
  let server: StaticFilesServer;
  const wasm = Buffer.alloc(3 * 1024 * 1024 + 7, 0xab);
  wasm.set([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

  beforeAll(async () => {
    top = mkdtempSync(join(tmpdir(), 'chainlens-static-'));
    root = join(top, 'site');
    mkdirSync(join(root, 'sub'), { recursive: true });
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>top</title>');
    writeFileSync(join(root, 'sub', 'index.html'), '<!doctype html><title>sub</title>');
    writeFileSync(join(root, 'assets', 'app.js'), 'export const answer = 42;\n');
    writeFileSync(join(root, 'assets', 'worker.mjs'), 'self.onmessage = () => {};\n');
    writeFileSync(join(root, 'assets', 'kernel.wasm'), wasm);
    writeFileSync(join(root, 'assets', 'data.bin'), 'x');
    writeFileSync(join(root, 'x'), 'inside');
    writeFileSync(join(top, 'secret.txt'), SECRET);
    writeFileSync(join(top, 'package.json'), SECRET);
    writeFileSync(join(top, 'x'), SECRET);
    if (process.platform !== 'win32') symlinkSync(join(top, 'secret.txt'), join(root, 'link.txt'));
    server = await serveStaticFiles(root);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(top, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1, a free port', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('serves files with their content type, no-cache and nosniff', async () => {
    const index = await fetch(server.url);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>top</title>');

    const js = await fetch(new URL('assets/app.js', server.url));
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await js.text()).toBe('export const answer = 42;\n');
    expect((await fetch(new URL('assets/worker.mjs', server.url))).headers.get('content-type')).toMatch(/^text\/javascript/);

    const kernel = await fetch(new URL('assets/kernel.wasm', server.url));
    expect(kernel.headers.get('content-type')).toBe('application/wasm');
    expect(kernel.headers.get('content-length')).toBe(String(wasm.length));
    expect(Buffer.from(await kernel.arrayBuffer()).equals(wasm)).toBe(true);

    expect((await raw(server.port, '/assets/data.bin')).headers['content-type']).toBe('application/octet-stream');
    expect((await raw(server.port, '/index.html?v=1')).status).toBe(200);
  });

  it("serves a folder's index.html at its trailing slash and redirects to it without one", async () => {
    const sub = await raw(server.port, '/sub/');
    expect(sub.status).toBe(200);
    expect(sub.body.toString()).toContain('<title>sub</title>');
    const bare = await raw(server.port, '/sub?x=1');
    expect(bare.status).toBe(301);
    expect(bare.headers.location).toBe('/sub/?x=1');
    expect((await raw(server.port, '/assets/')).status).toBe(404); // a folder without index.html
  });

  it('answers HEAD with the headers and no body, and 304 to a matching If-None-Match', async () => {
    const head = await raw(server.port, '/assets/kernel.wasm', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/wasm');
    expect(head.headers['content-length']).toBe(String(wasm.length));
    expect(head.body.length).toBe(0);
    const etag = head.headers.etag!;
    const again = await raw(server.port, '/assets/kernel.wasm', 'GET', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('refuses other methods with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const reply = await raw(server.port, '/', method);
      expect(reply.status, method).toBe(405);
      expect(reply.headers.allow).toBe('GET, HEAD');
    }
  });

  it('never serves a file outside the root', async () => {
    const attempts = [
      '/../package.json', '/%2e%2e/x', '/..%2fx', '/%2E%2E/secret.txt', '/..%2Fsecret.txt', '/sub/../../secret.txt',
      '/sub/%2e%2e/%2e%2e/secret.txt', '/..%5csecret.txt', '/..\\secret.txt', '/%00', '//../secret.txt',
    ];
    for (const path of attempts) {
      const reply = await raw(server.port, path);
      expect([403, 404], path).toContain(reply.status);
      expect(reply.body.toString(), path).not.toContain(SECRET);
    }
    if (process.platform !== 'win32') expect((await raw(server.port, '/link.txt')).status).toBe(403);
    // `.` segments and ones resolved inside the root are fine
    expect((await raw(server.port, '/./x')).body.toString()).toBe('inside');
    expect((await raw(server.port, '/sub/%2e/index.html')).status).toBe(200);
  });

  it('answers 400 to bad percent-encoding and 404 to a missing file', async () => {
    expect((await raw(server.port, '/%zz')).status).toBe(400);
    expect((await raw(server.port, '/%E0%A4%A')).status).toBe(400);
    expect((await raw(server.port, '/nope.js')).status).toBe(404);
    expect((await raw(server.port, '/index.html/more')).status).toBe(404);
    expect((await raw(server.port, '/sub/nope/')).status).toBe(404);
  });

  it('close() returns promptly with an idle keep-alive connection open', async () => {
    const other = await serveStaticFiles(root, { port: 0 });
    const agent = new Agent({ keepAlive: true });
    try {
      expect((await raw(other.port, '/', 'GET', {}, agent)).status).toBe(200);
      const started = performance.now();
      await other.close();
      expect(performance.now() - started).toBeLessThan(1_000);
      await expect(raw(other.port, '/')).rejects.toThrow();
    } finally {
      agent.destroy();
    }
  });
});
