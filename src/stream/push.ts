/**
 * The stream messages (DESIGN.md 8): a push is a JSON-RPC notification object, never an array,
 * so that a client tells it apart from a reply. It carries the new or updated data points of one
 * subscription after one block, or the error that ended the subscription.
 */
import type { RpcErrorObject } from '../rpc/errors.js';
import type { WireRecord } from '../schema/encode.js';

/** The method name of every push. */
export const PUSH_METHOD = 'chain::subscription';

/** The `params` of a push. */
export interface PushParams<R = WireRecord> {
  /** The subscription id `chain::subscribe` answered with. */
  subscription: number;
  /** The new or updated data points, in the method's answer order (absent on an error). */
  result?: R[];
  /** The block after which these points hold (absent for a change without a block: tokens). */
  block?: { slot: string; timestamp: string };
  /** Why the subscription ended; no push follows one that carries an error. */
  error?: RpcErrorObject;
}

/** One push, as posted on a port (as JSON text) or handed to a local callback. */
export interface PushMessage<R = WireRecord> {
  jsonrpc: '2.0';
  method: typeof PUSH_METHOD;
  params: PushParams<R>;
}

/** Whether a message received on a port is a push (replies are arrays). */
export function isPush(message: unknown): message is PushMessage {
  return message !== null && typeof message === 'object' && !Array.isArray(message) && (message as PushMessage).method === PUSH_METHOD;
}
