/**
 * A client for an engine served on a port (`engine.serve(port)`), in this or another thread:
 * the same `request` and `call` as a local engine.
 */
import type { ResponseEntry } from '../rpc/dispatch.js';
import { RpcError } from '../rpc/errors.js';
import { toEndpoint, type PortLike } from './endpoint.js';

export interface Client {
  /** Sends a body (object or JSON text) and resolves with the response array. */
  request(body: unknown): Promise<ResponseEntry[]>;
  /** Calls one method; resolves with the result array or rejects with an RpcError. */
  call(method: string, params?: Record<string, unknown>): Promise<unknown[]>;
  /** Stops listening on the port; pending requests reject. */
  close(): void;
}

export function connect(port: PortLike): Client {
  const endpoint = toEndpoint(port);
  const pending: { resolve(r: ResponseEntry[]): void; reject(e: Error): void }[] = [];
  let nextId = 1;
  const unlisten = endpoint.listen((data) => {
    const message = typeof data === 'string' ? JSON.parse(data) : data;
    if (!Array.isArray(message)) return; // a push (stream notification), not a reply
    pending.shift()?.resolve(message as ResponseEntry[]);
  });
  const request = (body: unknown) =>
    new Promise<ResponseEntry[]>((resolve, reject) => {
      pending.push({ resolve, reject });
      endpoint.post(body);
    });
  return {
    request,
    async call(method, params = {}) {
      const id = nextId++;
      const [entry] = await request({ jsonrpc: '2.0', id, method, params });
      if (entry && 'error' in entry) throw new RpcError(entry.error);
      return (entry as { result: unknown[] }).result;
    },
    close() {
      unlisten();
      for (const p of pending.splice(0)) p.reject(new Error('client closed'));
    },
  };
}
