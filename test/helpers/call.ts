/**
 * A call whose method or params are only known at run time (a loop over methods or windows): the
 * engine's typed `call` takes literal names, so such tests go through this untyped door. The answer
 * is the records as plain objects of wire values.
 */
import type { Engine } from '../../src/index.node.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire records of any method

export function callAny(engine: Pick<Engine, 'call'>, method: string, params: Record<string, unknown> = {}): Promise<Wire[]> {
  return (engine.call as unknown as (method: string, params: Record<string, unknown>) => Promise<Wire[]>)(method, params);
}
