/**
 * A method is data: its name, the record it returns, its parameter specs and a handler.
 * Dispatch, validation, the docs table and (later) streams are all derived from this one shape.
 */
import type { Params, ParamSpec, TimeSpec } from '../rpc/params.js';
import { AT_PARAM } from '../rpc/params.js';
import type { RecordOf, RecordSchema } from '../schema/records.js';
import type { MethodContext } from './context.js';

/** Parameter specs by name. */
export type ParamSpecs = Readonly<Record<string, ParamSpec>>;

/**
 * One method. Its type keeps the literal name, record schema and parameter specs, so that the
 * public method map (methods/types.ts) is derived from the table rather than written again.
 */
export interface MethodDefinition<S extends RecordSchema = RecordSchema, N extends string = string, P extends ParamSpecs = ParamSpecs> {
  /** Documented, prefixed name, e.g. chain::market::ohlcv. */
  readonly name: N;
  /** One line for the docs. */
  readonly summary: string;
  /** The record kind every data point of the result has. */
  readonly record: S;
  /** Parameter specs, including the `at` as-of parameter every method accepts. */
  readonly params: P;
  /**
   * The method's own checks and derived params beyond what the specs say (one param or another,
   * a value decoded into others). Runs wherever params are validated: calls and subscriptions.
   */
  readonly resolve?: (params: Params) => Params;
  /** Answers validated params with records, newest first. */
  handle(params: Params, context: MethodContext): Promise<RecordOf<S>[]> | RecordOf<S>[];
}

/** Defines a method; adds the `at` parameter so that no method can forget it. */
export function defineMethod<S extends RecordSchema, const N extends string, P extends Record<string, ParamSpec>>(
  definition: Omit<MethodDefinition<S, N>, 'params'> & { params: P },
): MethodDefinition<S, N, P & { at: TimeSpec }> {
  return { ...definition, params: { ...definition.params, at: AT_PARAM } };
}
