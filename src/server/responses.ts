/** The bodies and statuses the server answers with: always a JSON-RPC response array. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ResponseEntry } from '../rpc/dispatch.js';
import { ErrorCode, type RpcErrorObject } from '../rpc/errors.js';
import type { Refusal } from './access.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A response array of one error entry (`id: null`). */
export const errorEntries = (error: RpcErrorObject): ResponseEntry[] => [{ jsonrpc: '2.0', id: null, error }];

/** The same, as text. */
export const errorBody = (error: RpcErrorObject): string => JSON.stringify(errorEntries(error));

/** -32603 for a failure of the server itself (a bug), never a stack. */
export const INTERNAL_ERROR: RpcErrorObject = { code: ErrorCode.InternalError, message: 'internal error' };

/** Answers a request with a status and a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Answers a refused WebSocket upgrade on its raw socket, then closes it. */
export function writeRefusal(socket: Duplex, refusal: Refusal): void {
  const body = errorBody(refusal.error);
  const headers = { ...refusal.headers, 'Content-Type': JSON_TYPE, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') + `\r\n${body}`,
  );
}
