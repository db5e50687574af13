/**
 * A call whose method or params are only known at run time (a loop over methods or windows, an
 * extra method of one port): the typed `call` takes literal names, so such tests go through this untyped door. The answer
 * is the records as plain objects of wire values.
 */
import type { MethodCall } from '../../src/methods/types.js';

/** A wire record of any method (its fields depend on the method named at run time). */
type Wire = Record<string, any>;

/** `target.call` (an engine's or a port client's) with a method name known only at run time. */
export function callAny(target: { call: MethodCall }, method: string, params: Record<string, unknown> = {}): Promise<Wire[]> {
  return (target.call as unknown as (method: string, params: Record<string, unknown>) => Promise<Wire[]>)(method, params);
}
