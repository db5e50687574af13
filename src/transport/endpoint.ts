/**
 * The whole transport seam: anything that can post a message and deliver 'message' events.
 * Browser MessagePort/Worker and Node's MessagePort are EventTargets; a Node worker_threads
 * Worker is an EventEmitter. `toEndpoint` gives both one shape.
 */

/** Something messages can be posted on and received from. */
export interface PortLike {
  postMessage(message: unknown, transfer?: any[]): void;
  // `any` listeners: DOM and Node type their events differently; both carry `.data`.
  addEventListener?(type: 'message' | 'close' | 'messageerror', listener: (event: any) => void): void;
  removeEventListener?(type: 'message' | 'close' | 'messageerror', listener: (event: any) => void): void;
  on?(type: 'message' | 'close' | 'messageerror', listener: (data: any) => void): unknown;
  off?(type: 'message' | 'close' | 'messageerror', listener: (data: any) => void): unknown;
  start?(): void;
  close?(): void;
}

/** A port reduced to post + listen, with an unlisten that removes exactly what listen added. */
export interface Endpoint {
  post(message: unknown): void;
  listen(handler: (data: unknown) => void): () => void;
  /** Calls `handler` once the port is closed (on either side), where the port reports it (Node's MessagePort does). */
  onClose(handler: () => void): () => void;
  /** Calls `handler` for each message that arrived but could not be decoded (structured clone failed on this side). */
  onMessageError(handler: () => void): () => void;
}

export function toEndpoint(port: PortLike): Endpoint {
  return {
    post: (message) => port.postMessage(message),
    listen(handler) {
      if (port.addEventListener && port.removeEventListener) {
        const listener = (event: { data: unknown }) => handler(event.data);
        port.addEventListener('message', listener);
        port.start?.(); // a MessagePort delivers nothing to addEventListener until started
        return () => port.removeEventListener!('message', listener);
      }
      if (port.on && port.off) {
        port.on('message', handler);
        return () => port.off!('message', handler);
      }
      throw new TypeError('not a message port: needs addEventListener or on');
    },
    onClose: (handler) => on(port, 'close', handler),
    onMessageError: (handler) => on(port, 'messageerror', handler),
  };
}

/** Listens for a port event without data, whichever way the port delivers events; a no-op where it has none. */
function on(port: PortLike, type: 'close' | 'messageerror', handler: () => void): () => void {
  if (port.on && port.off) {
    port.on(type, handler);
    return () => port.off!(type, handler);
  }
  if (port.addEventListener && port.removeEventListener) {
    port.addEventListener(type, handler);
    return () => port.removeEventListener!(type, handler);
  }
  return () => undefined;
}
