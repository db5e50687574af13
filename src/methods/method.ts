/**
 * A method is data: its name, the record it returns, its parameter specs and a handler.
 * Dispatch, validation, the docs table and (later) streams are all derived from this one shape.
 */
import type { Params, ParamSpec } from '../rpc/params.js';
import { AT_PARAM } from '../rpc/params.js';
import type { RecordOf, RecordSchema } from '../schema/records.js';
import type { MethodContext } from './context.js';

export interface MethodDefinition<S extends RecordSchema = RecordSchema> {
  /** Documented, prefixed name, e.g. chain::market::ohlcv. */
  readonly name: string;
  /** One line for the docs. */
  readonly summary: string;
  /** The record kind every data point of the result has. */
  readonly record: S;
  /** Parameter specs, including the `at` as-of parameter every method accepts. */
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** Answers validated params with records, newest first. */
  handle(params: Params, context: MethodContext): Promise<RecordOf<S>[]> | RecordOf<S>[];
}

/** Defines a method; adds the `at` parameter so that no method can forget it. */
export function defineMethod<S extends RecordSchema>(
  definition: Omit<MethodDefinition<S>, 'params'> & { params: Record<string, ParamSpec> },
): MethodDefinition<S> {
  return { ...definition, params: { ...definition.params, at: AT_PARAM } };
}
