/**
 * A static file server for a built single-page app (`chainlens ui`, the browser test): node:http
 * only, GET and HEAD, files streamed from disk. Nothing outside `root` is ever served: `..`
 * segments (also percent-encoded) are refused, and every file's real path (symlinks resolved) must
 * lie under the real path of `root`.
 */
import { open, realpath, stat } from 'node:fs/promises';
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';

/** Where to listen: host (default 127.0.0.1) and port (default 0, a free port). */
export interface StaticFilesOptions {
  host?: string;
  port?: number;
}

/** A running static file server. */
export interface StaticFilesServer {
  /** `http://HOST:PORT/`, an IPv6 host in brackets. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Stops listening and closes every connection, idle keep-alive ones and downloads under way included. */
  close(): Promise<void>;
}

/** Content types by extension; anything else is application/octet-stream (with nosniff, never guessed). */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  // WebAssembly.instantiateStreaming accepts nothing else
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** On every response: the browser revalidates each file (a rebuilt app is seen at once) and never sniffs a type. */
const COMMON_HEADERS = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' } as const;

/** Serves the files under `root`; resolves once listening. `root` must exist. */
export async function serveStaticFiles(root: string, options: StaticFilesOptions = {}): Promise<StaticFilesServer> {
  const base = await realpath(resolve(root));
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    respond(base, req, res).catch((error: Error) => {
      if (!res.headersSent) plain(res, 500, error.message);
      else res.destroy(error);
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    host,
    port,
    close() {
      return (closing ??= new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        // server.close() alone waits for keep-alive sockets to time out (5 s); a static file is cheap to fetch again
        server.closeAllConnections();
      }));
    },
  };
}

/** Answers one request: the file, a redirect to a folder's `/`, or an error status. */
async function respond(base: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, undefined, { Allow: 'GET, HEAD' });
  const target = req.url ?? '/';
  // the raw request path: URL parsing would resolve `..` and `%2e%2e` itself, hiding them from the check below
  const rawPath = target.startsWith('/') ? target.replace(/[?#].*$/s, '') : URL.canParse(target) ? new URL(target).pathname : undefined;
  if (rawPath === undefined) return plain(res, 400);
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return plain(res, 400, 'bad percent-encoding');
  }
  const segments = path.split('/');
  // checked after decoding, so that `%2e%2e` and `..%2f` are caught; a backslash is a separator on Windows
  if (segments.some((s) => s === '..' || s.includes('\\') || s.includes('\0'))) return plain(res, 403);
  const folder = path.endsWith('/');
  const wanted = join(base, ...segments, ...(folder ? ['index.html'] : []));
  let file: string;
  try {
    file = await realpath(wanted);
  } catch {
    return plain(res, 404);
  }
  if (file !== base && !file.startsWith(base.endsWith(sep) ? base : base + sep)) return plain(res, 403);
  const info = await stat(file).catch(() => undefined);
  if (info?.isDirectory() && !folder) {
    // a folder's page needs its trailing slash for its relative links; one leading slash, never `//host`
    const query = target.startsWith('/') ? /[?].*$/s.exec(target)?.[0] ?? '' : '';
    return plain(res, 301, undefined, { Location: `/${rawPath.replace(/^\/+/, '')}/${query}` });
  }
  if (!info?.isFile()) return plain(res, 404);
  const etag = `W/"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
  const validators = { ...COMMON_HEADERS, ETag: etag, 'Last-Modified': info.mtime.toUTCString() };
  // no-cache revalidates: an unchanged file costs a 304, not its bytes
  if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return void res.writeHead(304, validators).end();
  const headers = { ...validators, 'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', 'Content-Length': info.size };
  if (req.method === 'HEAD') return void res.writeHead(200, headers).end();
  // opened before the headers go out, so that a file gone since stat is still a 404
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return plain(res, 404);
  res.writeHead(200, headers);
  // streamed: a large .wasm is never held in memory; an error or the client leaving destroys both ends and closes the file
  pipeline(handle.createReadStream(), res, () => undefined);
}

/** A short text response (the status line's phrase unless `text`). */
function plain(res: ServerResponse, status: number, text?: string, headers: Record<string, string> = {}): void {
  const body = `${status} ${text ?? STATUS_CODES[status]}\n`;
  res.writeHead(status, { ...COMMON_HEADERS, ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
