/**
 * The MessagePort server: answers JSON-RPC bodies posted on a port with the response array,
 * as JSON text when the request came as text, as a structured-clone array when it came as an
 * object. Every request message gets exactly one reply, in arrival order (requests still run
 * concurrently), so a client can match replies first in, first out.
 */
import { dispatchText, type ResponseEntry } from '../rpc/dispatch.js';
import { toEndpoint, type PortLike } from './endpoint.js';

/** Answers a body the same way `engine.request` does. */
export type RequestHandler = (body: unknown) => Promise<ResponseEntry[]>;

/** A running server on one port. */
export interface PortServer {
  /** Stops answering on the port (the port itself stays open). */
  close(): void;
}

export function servePort(port: PortLike, handle: RequestHandler): PortServer {
  const endpoint = toEndpoint(port);
  let replies: Promise<void> = Promise.resolve();
  const unlisten = endpoint.listen((data) => {
    const asText = typeof data === 'string';
    const answer = handle(data).catch((): ResponseEntry[] => [
      { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } },
    ]);
    replies = replies.then(async () => {
      const response = await answer;
      endpoint.post(asText ? JSON.stringify(response) : response);
    });
  });
  return { close: unlisten };
}
