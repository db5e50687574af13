/**
 * The method map as types, derived from the method table (methods/index.ts) and the record schemas:
 * the names a call accepts, each method's params and the records it answers, as they are on the wire.
 */
import type { FlagSpec, IntegerSpec, KeysSpec, LimitSpec, MintSpec, ParamSpec, TextSpec, TimeSpec, WindowSpec } from '../rpc/params.js';
import type { WireRecord } from '../schema/encode.js';
import type { WireOf } from '../schema/records.js';
import type { PushHandler, StreamSubscription } from '../transport/client.js';
import type { METHOD_DEFINITIONS } from './index.js';

type Definition = (typeof METHOD_DEFINITIONS)[number];

/** Every documented method name. */
export type MethodName = Definition['name'];

type DefinitionOf<M extends MethodName> = Extract<Definition, { name: M }>;

/** The value a caller passes for one parameter spec. */
type ParamValue<S extends ParamSpec> = S extends WindowSpec<infer W>
  ? W
  : S extends LimitSpec | IntegerSpec
    ? number
    : S extends MintSpec | TextSpec
      ? string
      : S extends TimeSpec
        ? number | string
        : S extends FlagSpec
          ? boolean
          : S extends KeysSpec
            ? string[]
            : never;

/** A window without a default is the only required parameter. */
type RequiredKeys<P> = { [K in keyof P]: P[K] extends WindowSpec<string, undefined> ? K : never }[keyof P];

type Flatten<T> = { [K in keyof T]: T[K] };

type ParamsFrom<P extends Readonly<Record<string, ParamSpec>>> = Flatten<
  { [K in RequiredKeys<P>]: ParamValue<P[K]> } & { [K in Exclude<keyof P, RequiredKeys<P>>]?: ParamValue<P[K]> }
>;

/**
 * The params method `M` accepts: windows as their literal union, mints as base58 strings, `limit` a
 * number, times (`at`, `from`, `to`) Unix seconds or ISO-8601, account lists as base58 strings; all
 * optional but a window without a default.
 */
export type ParamsOf<M extends MethodName> = M extends MethodName ? ParamsFrom<DefinitionOf<M>['params']> : never;

/** The record method `M` answers, as it arrives on the wire (numbers as decimal strings, see WireValueOf). */
export type WireRecordOf<M extends MethodName> = M extends MethodName ? WireOf<DefinitionOf<M>['record']> : never;

/** `S` when it is the wide `string` type (a name known only at run time), never for a literal: a typo'd literal does not compile. */
export type DynamicName<S extends string> = string extends S ? S : never;

/** `call` of an engine or a port client: typed by the method map, or by a name known only at run time. */
export interface MethodCall {
  /** Calls method `M`; resolves with its records, rejects with an RpcError carrying the error object. */
  <M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<WireRecordOf<M>[]>;
  /** Calls a method named at run time (params checked by the engine, -32601/-32602 when wrong). */
  <S extends string>(method: DynamicName<S>, params?: Record<string, unknown>): Promise<WireRecord[]>;
}

/** `subscribe` of an engine or a port client: pushes carry method `M`'s wire records. */
export interface MethodSubscribe {
  /** Subscribes to method `M`'s stream; `onPush` gets every push of the subscription. */
  <M extends MethodName>(method: M, params: ParamsOf<M>, onPush: PushHandler<WireRecordOf<M>>): Promise<StreamSubscription>;
  /** Subscribes to a method named at run time. */
  <S extends string>(method: DynamicName<S>, params: Record<string, unknown>, onPush: PushHandler): Promise<StreamSubscription>;
}
