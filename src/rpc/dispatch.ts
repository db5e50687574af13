/**
 * The one JSON-RPC core under every transport (DESIGN.md 4): a parsed body (one request or a
 * batch) in, the response array out. Local calls, MessagePort servers and the CLI all run this.
 */
import { encodeRecord, type WireRecord } from '../schema/encode.js';
import type { MethodContext } from '../methods/context.js';
import type { MethodDefinition } from '../methods/method.js';
import { ErrorCode, invalidRequest, RpcError, toErrorObject, type RpcErrorObject } from './errors.js';
import { validateParams } from './params.js';
import { closest } from './suggest.js';

/** One entry of the response array. */
export type ResponseEntry =
  | { jsonrpc: '2.0'; id: number | null; result: unknown }
  | { jsonrpc: '2.0'; id: number | null; error: RpcErrorObject };

/** Extra methods beside the data methods (subscriptions), answered with a raw result. */
export type ExtraHandler = (params: unknown) => Promise<unknown> | unknown;

/** What dispatch needs: the method table, the context handlers read, and optional extra methods. */
export interface DispatchTarget {
  readonly methods: ReadonlyMap<string, MethodDefinition>;
  readonly context: MethodContext;
  readonly extra?: ReadonlyMap<string, ExtraHandler>;
}

const errorEntry = (id: number | null, error: RpcErrorObject): ResponseEntry => ({ jsonrpc: '2.0', id, error });

/** -32700 for text that is not JSON. */
export function parseErrorResponse(): ResponseEntry[] {
  return [errorEntry(null, { code: ErrorCode.ParseError, message: 'parse error: the body is not valid JSON' })];
}

/** Parses JSON text (or passes a parsed body through) and dispatches it. */
export async function dispatchText(body: unknown, target: DispatchTarget): Promise<ResponseEntry[]> {
  if (typeof body !== 'string') return dispatch(body, target);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return parseErrorResponse();
  }
  return dispatch(parsed, target);
}

/** Dispatches one request or a batch; notifications get no entry; batch entries keep request order. */
export async function dispatch(body: unknown, target: DispatchTarget): Promise<ResponseEntry[]> {
  if (Array.isArray(body)) {
    if (body.length === 0) return [errorEntry(null, invalidRequest('empty batch').rpc)];
    const entries = await Promise.all(body.map((request) => dispatchOne(request, target)));
    return entries.filter((entry): entry is ResponseEntry => entry !== undefined);
  }
  const entry = await dispatchOne(body, target);
  return entry ? [entry] : [];
}

/** Validates the envelope; undefined for a valid notification. */
async function dispatchOne(request: unknown, target: DispatchTarget): Promise<ResponseEntry | undefined> {
  if (request === null || typeof request !== 'object' || Array.isArray(request)) {
    return errorEntry(null, invalidRequest('a request must be a JSON object').rpc);
  }
  const { jsonrpc, id, method, params } = request as Record<string, unknown>;
  const hasId = 'id' in request;
  const validId = hasId && typeof id === 'number' && Number.isSafeInteger(id);
  const echoId = validId ? (id as number) : null;
  if (hasId && !validId) return errorEntry(null, invalidRequest('id must be an integer').rpc);
  if (jsonrpc !== '2.0') return errorEntry(echoId, invalidRequest("jsonrpc must be the string '2.0'").rpc);
  if (typeof method !== 'string') return errorEntry(echoId, invalidRequest('method must be a string').rpc);
  const unknownMember = Object.keys(request).find((k) => !['jsonrpc', 'id', 'method', 'params'].includes(k));
  if (unknownMember) return errorEntry(echoId, invalidRequest(`unknown member '${unknownMember}'`).rpc);
  try {
    const result = await call(method, params, target);
    return hasId ? { jsonrpc: '2.0', id: echoId, result } : undefined;
  } catch (error) {
    return hasId ? errorEntry(echoId, toErrorObject(error)) : undefined;
  }
}

/** Runs one method by name and returns its encoded result (the data points, on the wire). */
export async function call(method: string, params: unknown, target: DispatchTarget): Promise<unknown> {
  const extra = target.extra?.get(method);
  if (extra) return extra(params);
  const definition = methodOf(method, target);
  const validated = validateParams(definition.params, params);
  const records = await definition.handle(validated, target.context);
  return records.map((record): WireRecord => encodeRecord(definition.record, record));
}

/**
 * Checks a call without running it: the error object `call` would answer with for an unknown
 * method or bad params, or undefined when it would run (an extra method's params are its own to check).
 */
export function validateCall(method: string, params: unknown, target: Pick<DispatchTarget, 'methods' | 'extra'>): RpcErrorObject | undefined {
  if (target.extra?.has(method)) return undefined;
  try {
    validateParams(methodOf(method, target).params, params);
    return undefined;
  } catch (error) {
    return toErrorObject(error);
  }
}

function methodOf(method: string, target: Pick<DispatchTarget, 'methods' | 'extra'>): MethodDefinition {
  const definition = target.methods.get(method);
  if (!definition) throw unknownMethod(method, target);
  return definition;
}

function unknownMethod(method: string, target: Pick<DispatchTarget, 'methods' | 'extra'>): RpcError {
  const names = [...target.methods.keys(), ...(target.extra?.keys() ?? [])];
  const suggestion = closest(method, names);
  return new RpcError({
    code: ErrorCode.MethodNotFound,
    message: `method not found: '${method}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    data: { method, suggestion },
  });
}
