/**
 * The MessagePort server: answers JSON-RPC bodies posted on a port with the response array, as
 * JSON text when the request came as text, as a structured-clone array when it came as an object.
 * A tagged request (`connect()`'s, see tags.ts) is answered with its tag as soon as it is ready; a
 * bare body is answered bare, in arrival order, so that a hand-written client can match replies
 * first in, first out. Every message gets exactly one reply, even one that could not be decoded
 * (a bare -32700) and one whose handling failed (-32603). Stream pushes (objects, never arrays)
 * go out as JSON text between replies (DESIGN.md 8).
 */
import { ErrorCode } from '../rpc/errors.js';
import type { ResponseEntry } from '../rpc/dispatch.js';
import { toEndpoint, type PortLike } from './endpoint.js';
import { asTaggedRequest } from './tags.js';

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

const internalError = (): ResponseEntry[] => [{ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InternalError, message: 'internal error' } }];
const undecodable = (): ResponseEntry[] => [{
  jsonrpc: '2.0',
  id: null,
  error: { code: ErrorCode.ParseError, message: 'parse error: the message could not be decoded (structured clone failed; nested too deep?)' },
}];

/** Serves `port`; `open` makes the session, given the function that posts a push (JSON text) on the port. */
export function servePort(port: PortLike, open: (post: (text: string) => void) => PortSession): PortServer {
  const endpoint = toEndpoint(port);
  let closed = false;
  const session = open((text) => {
    if (!closed) endpoint.post(text);
  });
  const answer = (body: unknown) => session.handle(body).catch(internalError);
  /** Posts the reply `wrap` makes of `entries`; if that cannot be posted, the same reply with a -32603. */
  const post = (entries: ResponseEntry[], wrap: (entries: ResponseEntry[]) => unknown) => {
    if (closed) return;
    for (const reply of [entries, internalError()]) {
      try {
        endpoint.post(wrap(reply));
      } catch {
        continue; // not cloneable (a bug) or the port went away: try the error once
      }
      session.replied?.(reply);
      return;
    }
  };
  const form = (asText: boolean) => (entries: ResponseEntry[]) => (asText ? JSON.stringify(entries) : entries);

  let bareReplies: Promise<void> = Promise.resolve();
  const replyBare = (response: Promise<ResponseEntry[]>, asText: boolean) => {
    bareReplies = bareReplies.then(async () => {
      post(await response, form(asText));
    });
  };

  const unlisten = endpoint.listen((data) => {
    const tagged = asTaggedRequest(data);
    if (tagged) {
      const asText = form(typeof tagged.body === 'string');
      void answer(tagged.body).then((entries) => post(entries, (reply) => ({ tag: tagged.tag, response: asText(reply) })));
    } else replyBare(answer(data), typeof data === 'string');
  });
  const unlistenError = endpoint.onMessageError(() => replyBare(Promise.resolve(undecodable()), false));
  const close = () => {
    if (closed) return;
    closed = true;
    unlisten();
    unlistenError();
    unlistenClose();
    session.close?.();
  };
  const unlistenClose = endpoint.onClose(close);
  return { close };
}
