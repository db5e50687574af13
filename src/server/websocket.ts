/**
 * The server's WebSockets: each socket is one engine session (engine.session), so it answers the
 * same envelopes as a POST and holds its own subscriptions, whose pushes it sends as text frames.
 *
 * - The upgrade is authenticated like a POST; a refused upgrade gets the HTTP refusal, not a socket.
 * - Each request frame gets one reply frame, in the order the requests came (`[]` for a body of
 *   notifications only, as a port and a POST answer it), so a client can match replies first in, first out.
 * - A push counts as read once the socket has handed it to the operating system: a client that
 *   stops reading fills the socket's buffers, its pushes stay pending, and the subscription ends at
 *   the engine's slow-subscriber bound (-32005), as on a port.
 * - A demo token is charged per request frame; a revoked token's socket is closed (1008).
 * - Every `heartbeatMs` each socket is pinged; one that has not answered the previous ping (a peer
 *   gone without a close, which TCP may not notice for hours) is terminated, ending its subscriptions.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Engine } from '../engine.js';
import type { ResponseEntry } from '../rpc/dispatch.js';
import { ErrorCode } from '../rpc/errors.js';
import { admit, charge, unauthorized, type Refusal } from './access.js';
import type { RateLimiter } from './rate-limit.js';
import { errorBody, errorEntries, INTERNAL_ERROR, writeRefusal } from './responses.js';
import type { TokenStore } from './tokens.js';

/** Close codes (RFC 6455). */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY = 1008;

export interface SocketOptions {
  engine: Engine;
  tokens: TokenStore;
  limiter: RateLimiter;
  maxPayloadBytes: number;
  heartbeatMs: number;
  /** Whether a browser page of this origin may connect (no Origin header: not a browser, allowed). */
  originAllowed: (origin: string | undefined, host: string | undefined) => boolean;
}

/** The WebSocket side of a server. */
export class SocketServer {
  readonly #wss: WebSocketServer;
  readonly #sockets = new Set<WebSocket>();
  /** Sockets that answered the last ping (or opened since). */
  readonly #alive = new WeakSet<WebSocket>();
  readonly #heartbeat: ReturnType<typeof setInterval>;

  constructor(private readonly options: SocketOptions) {
    this.#heartbeat = setInterval(() => {
      for (const ws of this.#sockets) {
        if (!this.#alive.has(ws)) ws.terminate();
        else {
          this.#alive.delete(ws);
          ws.ping();
        }
      }
    }, options.heartbeatMs);
    this.#heartbeat.unref();
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayloadBytes,
      // a browser's token rides in a subprotocol; the socket answers with the first, so the page sees one
      handleProtocols: (protocols) => [...protocols][0] ?? false,
    });
  }

  /** Open sockets. */
  get size(): number {
    return this.#sockets.size;
  }

  /** Handles an HTTP upgrade: authenticates, then opens the socket. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuse = (refusal: Refusal) => writeRefusal(socket, refusal);
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path !== '/') return refuse({ status: 404, headers: {}, error: { code: ErrorCode.InvalidRequest, message: `not found: ${path.slice(0, 64)}; the WebSocket is at /` } });
    if (!this.options.originAllowed(request.headers.origin, request.headers.host)) {
      return refuse({ status: 403, headers: {}, error: { code: ErrorCode.Unauthorized, message: `forbidden: origin ${request.headers.origin} is not allowed` } });
    }
    const admitted = admit(request.headers, this.options.tokens, this.options.limiter);
    if ('refused' in admitted) return refuse(admitted.refused);
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#open(ws, admitted.presented));
  }

  /** Closes every socket with 1001 (going away) and waits until they are closed. */
  async close(timeoutMs: number): Promise<void> {
    clearInterval(this.#heartbeat);
    const closed = [...this.#sockets].map((ws) => new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close(CLOSE_GOING_AWAY, 'server shutting down');
    }));
    const timer = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.all(closed), timer]);
    for (const ws of this.#sockets) ws.terminate();
    this.#wss.close();
  }

  #open(ws: WebSocket, token: string): void {
    this.#sockets.add(ws);
    this.#alive.add(ws);
    ws.on('pong', () => this.#alive.add(ws));
    const session = this.options.engine.session((text) => new Promise<void>((resolve) => {
      // an error here means the socket is gone: its close ends the session
      ws.send(text, () => resolve());
    }));
    let replies = Promise.resolve();
    const reply = (response: Promise<ResponseEntry[]>) => {
      replies = replies.then(async () => {
        const entries = await response;
        if (ws.readyState !== ws.OPEN) return;
        ws.send(JSON.stringify(entries));
        session.replied?.(entries);
      });
    };
    ws.on('message', (data) => {
      const check = this.options.tokens.check(token);
      if (!check.ok) {
        ws.send(errorBody(unauthorized(check.refusal).error));
        ws.close(CLOSE_POLICY, `token ${check.refusal}`);
        return;
      }
      const refused = charge(check.token, this.options.limiter);
      if (refused) return reply(Promise.resolve(errorEntries(refused.error)));
      // binaryType 'nodebuffer': one Buffer per message, text or binary frames alike
      reply(session.handle((data as Buffer).toString('utf8')).catch(() => errorEntries(INTERNAL_ERROR)));
    });
    ws.on('close', () => {
      this.#sockets.delete(ws);
      session.close?.();
    });
    ws.on('error', () => ws.terminate());
  }
}
