/**
 * A typed Comlink `Endpoint` over Node's worker_threads `Worker` or `MessagePort`, which deliver
 * `.on('message', data)` where Comlink listens with `addEventListener('message', ev => ev.data)`.
 * (Comlink's own node-adapter has no types under NodeNext.) Only type imports from node:*.
 */
import type { Endpoint } from 'comlink';
import type { MessagePort, Transferable, Worker } from 'node:worker_threads';

type Listener = EventListenerOrEventListenerObject;

/** Adapts a Node `Worker` (parent side) or `MessagePort` (e.g. `parentPort`) to a Comlink endpoint. */
export function nodeEndpoint(port: Worker | MessagePort): Endpoint {
  const handlers = new WeakMap<Listener, (data: unknown) => void>();
  return {
    postMessage: (message: unknown, transfer?: readonly unknown[]) =>
      port.postMessage(message, transfer as readonly Transferable[] | undefined),
    addEventListener(_type: string, listener: Listener) {
      const handler = (data: unknown) => {
        const event = { data } as MessageEvent;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      handlers.set(listener, handler);
      port.on('message', handler);
    },
    removeEventListener(_type: string, listener: Listener) {
      const handler = handlers.get(listener);
      if (handler) port.off('message', handler);
      handlers.delete(listener);
    },
  };
}
