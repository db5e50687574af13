/**
 * The one JSON-RPC core under every transport (DESIGN.md 4): a parsed body (one request or a
 * batch) in, the response array out. Local calls, MessagePort servers and the CLI all run this.
 */
import { encodeRecords } from '../schema/encode.js';
import type { MethodContext } from '../methods/context.js';
import type { MethodDefinition } from '../methods/method.js';
import { ErrorCode, invalidParam, invalidRequest, RpcError, toErrorObject, type RpcErrorObject } from './errors.js';
import { cut, echo, nestsDeeperThan } from './echo.js';
import { MAX_BATCH, MAX_METHOD_CHARS, MAX_PARAMS_NESTING } from './limits.js';
import { validateParams, type Params } from './params.js';
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
    if (body.length > MAX_BATCH) return [errorEntry(null, invalidRequest(`a batch of ${body.length} requests; at most ${MAX_BATCH}`).rpc)];
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
  let envelope: Envelope;
  try {
    envelope = readEnvelope(request);
  } catch {
    return errorEntry(null, invalidRequest('the request object could not be read').rpc);
  }
  const { hasId, id, jsonrpc, method, params, members } = envelope;
  const validId = hasId && typeof id === 'number' && Number.isSafeInteger(id);
  const echoId = validId ? (id as number) : null;
  if (hasId && !validId) return errorEntry(null, invalidRequest('id must be an integer').rpc);
  if (jsonrpc !== '2.0') return errorEntry(echoId, invalidRequest("jsonrpc must be the string '2.0'").rpc);
  if (typeof method !== 'string') return errorEntry(echoId, invalidRequest('method must be a string').rpc);
  const unknownMember = members.find((k) => !ENVELOPE_MEMBERS.includes(k));
  if (unknownMember) return errorEntry(echoId, invalidRequest(`unknown member ${echo(unknownMember)}`).rpc);
  try {
    const result = await call(method, params, target);
    return hasId ? { jsonrpc: '2.0', id: echoId, result } : undefined;
  } catch (error) {
    return hasId ? errorEntry(echoId, toErrorObject(error)) : undefined;
  }
}

const ENVELOPE_MEMBERS = ['jsonrpc', 'id', 'method', 'params'];

interface Envelope {
  hasId: boolean;
  id: unknown;
  jsonrpc: unknown;
  method: unknown;
  params: unknown;
  members: string[];
}

/** The request's own members (never inherited ones: `constructor` is not a member of `{}`). */
function readEnvelope(request: object): Envelope {
  const own = (name: string) => (Object.hasOwn(request, name) ? (request as Record<string, unknown>)[name] : undefined);
  return {
    hasId: Object.hasOwn(request, 'id'),
    id: own('id'),
    jsonrpc: own('jsonrpc'),
    method: own('method'),
    params: own('params'),
    members: Object.keys(request),
  };
}

/** Runs one method by name and returns its encoded result (the data points, on the wire). */
export async function call(method: string, params: unknown, target: DispatchTarget): Promise<unknown> {
  const extra = target.extra?.get(method);
  if (extra) return extra(params);
  const definition = methodOf(method, target);
  const validated = checkedParams(definition, params);
  const records = await definition.handle(validated, target.context);
  return encodeRecords(definition.record, records);
}

/**
 * Checks a call without running it: the error object `call` would answer with for an unknown
 * method or bad params, or undefined when it would run (an extra method's params are its own to check).
 */
export function validateCall(method: string, params: unknown, target: Pick<DispatchTarget, 'methods' | 'extra'>): RpcErrorObject | undefined {
  if (target.extra?.has(method)) return undefined;
  try {
    checkedParams(methodOf(method, target), params);
    return undefined;
  } catch (error) {
    return toErrorObject(error);
  }
}

/** The definition of a data method; -32601 (with a suggestion) for an unknown name. */
export function methodOf(method: string, target: Pick<DispatchTarget, 'methods' | 'extra'>): MethodDefinition {
  const definition = target.methods.get(method);
  if (!definition) throw unknownMethod(method, target);
  return definition;
}

/** The params a handler gets; anything wrong with them is -32602, whatever it was. */
export function checkedParams(definition: MethodDefinition, params: unknown) {
  if (nestsDeeperThan(params, MAX_PARAMS_NESTING)) {
    throw invalidParam('params', `nest deeper than ${MAX_PARAMS_NESTING} levels`);
  }
  let validated: Params;
  try {
    validated = validateParams(definition.params, params);
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw invalidParam('params', `could not be read (${error instanceof Error ? echo(error.message) : 'unknown reason'})`);
  }
  return definition.resolve ? definition.resolve(validated) : validated;
}

function unknownMethod(method: string, target: Pick<DispatchTarget, 'methods' | 'extra'>): RpcError {
  const names = [...target.methods.keys(), ...(target.extra?.keys() ?? [])];
  // a name longer than any method's is no typo of one: no comparison, and only its start is repeated
  const suggestion = method.length <= MAX_METHOD_CHARS ? closest(method, names) : undefined;
  const shown = cut(method, MAX_METHOD_CHARS);
  return new RpcError({
    code: ErrorCode.MethodNotFound,
    message: `method not found: '${shown}'${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    data: { method: shown, suggestion },
  });
}
