/**
 * The JSON-RPC error catalog (DESIGN.md 4). Errors are data at every boundary: an `RpcErrorObject`
 * crosses ports as plain JSON; `RpcError` only wraps one for throwing inside a single realm.
 */

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  Unauthorized: -32001,
  SubscriptionNotFound: -32004,
  RateLimited: -32005,
} as const;

/** The `error` member of a JSON-RPC response entry. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An error carrying its JSON-RPC error object (`error.rpc`), as thrown by `call()`. */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(readonly rpc: RpcErrorObject) {
    super(rpc.message);
    this.name = 'RpcError';
    this.code = rpc.code;
    this.data = rpc.data;
  }
}

/** -32602 naming the parameter, with what is allowed. */
export function invalidParam(param: string, message: string, allowed?: unknown): RpcError {
  return new RpcError({
    code: ErrorCode.InvalidParams,
    message: `invalid param '${param}': ${message}`,
    data: allowed === undefined ? { param } : { param, allowed },
  });
}

/** -32600 for a request object that is not a valid JSON-RPC 2.0 request. */
export function invalidRequest(message: string): RpcError {
  return new RpcError({ code: ErrorCode.InvalidRequest, message: `invalid request: ${message}` });
}

/** Turns anything thrown into a JSON-RPC error object; unexpected errors become -32603 without a stack. */
export function toErrorObject(error: unknown): RpcErrorObject {
  if (error instanceof RpcError) return error.rpc;
  const reason = error instanceof Error ? error.message : String(error);
  return { code: ErrorCode.InternalError, message: 'internal error', data: { reason } };
}
