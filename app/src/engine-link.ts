/**
 * The page's side of the engine worker: its Comlink control surface, and a JSON-RPC client on a
 * port of the current engine. A load or a replay replaces the engine; `renew` then hands the
 * panels a client of the new one.
 */
import { wrap, type Remote } from 'comlink';
import { connect, type Client } from '../../dist/src/transport/client.js';
import type { EngineHost } from './host-api.js';

export class EngineLink {
  readonly host: Remote<EngineHost>;
  #client: Client | undefined;
  #generation = 0;
  #listeners = new Set<(client: Client) => void>();

  constructor() {
    const worker = new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'chainlens-engine' });
    this.host = wrap<EngineHost>(worker);
  }

  /** The client of the current engine, if one is open. */
  get client(): Client | undefined {
    return this.#client;
  }

  /** Counts engine replacements: whoever started work on an engine can tell it was replaced since. */
  get generation(): number {
    return this.#generation;
  }

  /** Forgets the current engine's client (its engine is about to be replaced). */
  drop(): void {
    this.#generation++;
    this.#client?.close();
    this.#client = undefined;
  }

  /** Connects to the engine the worker holds now, and tells every listener. */
  async renew(): Promise<Client> {
    this.#client?.close();
    const client = connect(await this.host.connect());
    this.#client = client;
    for (const listener of this.#listeners) listener(client);
    return client;
  }

  /** Calls `listener` with each new client. */
  onClient(listener: (client: Client) => void): void {
    this.#listeners.add(listener);
  }
}
