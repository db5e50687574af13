/**
 * The MessagePort server: answers JSON-RPC bodies posted on a port with the response array,
 * as JSON text when the request came as text, as a structured-clone array when it came as an
 * object. Every request message gets exactly one reply, in arrival order (requests still run
 * concurrently), so a client can match replies first in, first out. Stream pushes (objects, never
 * arrays) go out as JSON text between replies (DESIGN.md 8).
 */
import type { ResponseEntry } from '../rpc/dispatch.js';
import { toEndpoint, type PortLike } from './endpoint.js';

/** What a server runs for one port: its request handler, and the hooks of its stream connection. */
export interface PortSession {
  /** Answers a body the same way `engine.request` does. */
  handle(body: unknown): Promise<ResponseEntry[]>;
  /** Called once a reply has been posted (a subscription's pushes may start once its id is out). */
  replied?(response: readonly ResponseEntry[]): void;
  /** Called once when the server stops or the port closes. */
  close?(): void;
}

/** A running server on one port. */
export interface PortServer {
  /** Stops answering on the port and ends its subscriptions (the port itself stays open). */
  close(): void;
}

/** Serves `port`; `open` makes the session, given the function that posts a push (JSON text) on the port. */
export function servePort(port: PortLike, open: (post: (text: string) => void) => PortSession): PortServer {
  const endpoint = toEndpoint(port);
  let closed = false;
  const session = open((text) => {
    if (!closed) endpoint.post(text);
  });
  let replies: Promise<void> = Promise.resolve();
  const unlisten = endpoint.listen((data) => {
    const asText = typeof data === 'string';
    const answer = session.handle(data).catch((): ResponseEntry[] => [
      { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } },
    ]);
    replies = replies.then(async () => {
      const response = await answer;
      endpoint.post(asText ? JSON.stringify(response) : response);
      if (!closed) session.replied?.(response);
    });
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unlisten();
    unlistenClose();
    session.close?.();
  };
  const unlistenClose = endpoint.onClose(close);
  return { close };
}
