/**
 * The transport's own limit: a bare `node:http` server in its own process that reads each POST
 * body and answers the bytes chainlens answered to that same body (captured from the server under
 * test before), with the same status and headers (Content-Type, Content-Length, keep-alive). No
 * token check, no JSON parsing, no engine: what HTTP alone costs on this machine.
 *
 * `node bare-server.js --child <answers.json>`, where the file holds `[[request body, answer body], ...]`.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { childArgs, isChildOf } from '../child.js';
import { serveCommands } from './control.js';

const JSON_TYPE = 'application/json; charset=utf-8';

async function main(file: string): Promise<void> {
  const answers = new Map<string, Buffer>(
    (JSON.parse(await readFile(file, 'utf8')) as [string, string][]).map(([request, answer]) => [request, Buffer.from(answer)]),
  );
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = answers.get(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(answer ? 200 : 404, { 'Content-Type': JSON_TYPE, 'Content-Length': answer?.length ?? 0 });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  serveCommands({ url: `http://127.0.0.1:${port}/`, pid: process.pid }, () => null, () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }));
}

if (isChildOf(import.meta.url)) await main(childArgs()[0]!);
