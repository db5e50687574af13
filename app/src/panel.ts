/**
 * The machinery every view shares: a view says which queries answer it and how to draw the
 * answers; its panel sends them as one JSON-RPC batch (with `at` when the timeline sets one),
 * follows their streams while a replay runs (each push asks for a fresh answer, coalesced, so a
 * view always shows what a query would answer after that block), and exports what it shows.
 */
import type { ResponseEntry } from '../../dist/src/rpc/dispatch.js';
import type { Client, StreamSubscription } from '../../dist/src/transport/client.js';
import { download, h, toCsv } from './dom.js';
import type { EngineLink } from './engine-link.js';
import type { AppState, Store } from './state.js';

/** One method call. */
export interface Query {
  method: string;
  params: Record<string, unknown>;
}

/** Answers by query name: the wire records. */
export type Answers = Record<string, Record<string, unknown>[]>;

/** A chart that can be exported as an image (lightweight-charts' IChartApi has this). */
export interface Snapshot {
  takeScreenshot(): HTMLCanvasElement;
}

export interface ViewSpec {
  /** The panel's `data-view` and tab id. */
  readonly id: string;
  readonly title: string;
  /** Builds the view's controls and body; `changed()` asks for fresh answers. */
  mount(controls: HTMLElement, body: HTMLElement, changed: () => void): void;
  /**
   * The queries that answer the view now, without `at` (the panel adds it); undefined ones are
   * skipped. `following`: the refresh follows a load's progress or a replay's pushes, and a view
   * may leave out what it need not ask again so soon (the previous answer is kept).
   */
  queries(state: AppState, following: boolean): Record<string, Query | undefined>;
  render(answers: Answers, state: AppState): void;
  /** The answer the CSV export writes. */
  readonly primary: string;
  /** The chart a PNG export draws, if the view has one. */
  chart?(): Snapshot | undefined;
}

/** Least time between two refreshes caused by a load's progress or a replay's pushes. */
const FOLLOW_MS = 250;

export class Panel {
  readonly element: HTMLElement;
  #status: HTMLElement;
  #visible = false;
  #dirty = true;
  #running: Promise<void> | undefined;
  #again = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #answered = 0;
  #answers: Answers = {};
  /** Whether the refresh asked for now only follows a load or replay (see ViewSpec.queries). */
  #following = false;
  #sent: Record<string, Query> = {};
  #streams: StreamSubscription[] = [];
  #streamKey = '';

  constructor(readonly spec: ViewSpec, private readonly store: Store, private readonly link: EngineLink) {
    const controls = h('div', { class: 'controls' });
    const body = h('div', { class: 'body' });
    this.#status = h('span', { class: 'status', role: 'status' });
    const exports = h('div', { class: 'exports' },
      h('button', { type: 'button', 'data-export': 'csv', onclick: () => this.exportCsv() }, 'CSV'),
      h('button', { type: 'button', 'data-export': 'json', onclick: () => this.exportJson() }, 'JSON'),
      ...(spec.chart ? [h('button', { type: 'button', 'data-export': 'png', onclick: () => this.exportPng() }, 'PNG')] : []));
    this.element = h('section', { class: 'panel', 'data-view': spec.id, hidden: true },
      h('div', { class: 'panel-head' }, controls, exports, this.#status), body);
    spec.mount(controls, body, () => {
      this.invalidate();
      void this.#follow(); // the view's queries changed: follow the new ones' streams
    });
    store.listen((state, changed) => {
      if (changed.has('streaming')) void this.#follow();
      if (changed.has('at')) this.invalidate();
    });
    link.onClient(() => {
      this.#answers = {};
      this.#sent = {};
      this.#streams = [];
      this.#streamKey = '';
      this.invalidate();
      void this.#follow();
    });
  }

  /** Shows or hides the panel; a panel shown after changes refreshes then. */
  show(visible: boolean): void {
    this.#visible = visible;
    this.element.hidden = !visible;
    if (visible && this.#dirty) void this.refresh();
  }

  /** The answers need refreshing: now if visible, else when shown. */
  invalidate(): void {
    this.#dirty = true;
    this.#following = false;
    if (this.#visible) void this.refresh();
  }

  /** At most one refresh per FOLLOW_MS while a load or replay goes on. */
  follow(): void {
    if (!this.#dirty) this.#following = true;
    this.#dirty = true;
    if (!this.#visible || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.refresh();
    }, FOLLOW_MS);
  }

  /** Sends the view's queries as one batch and draws the answers; a refresh asked meanwhile runs after. */
  refresh(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    // set while answers are on their way: whoever watches the view (the browser tests) waits for them
    this.element.dataset.refreshing = 'true';
    this.#running = this.#refresh().finally(() => {
      this.#running = undefined;
      if (this.#again) {
        this.#again = false;
        void this.refresh();
      } else delete this.element.dataset.refreshing;
    });
    return this.#running;
  }

  async #refresh(): Promise<void> {
    const client = this.link.client;
    if (!client) return;
    const following = this.#following;
    this.#dirty = false;
    this.#following = false;
    const state = this.store.state;
    const queries = Object.entries(this.spec.queries(state, following)).filter((e): e is [string, Query] => e[1] !== undefined);
    const sent: Record<string, Query> = {};
    const batch = queries.map(([name, q], i) => {
      const params = state.at !== undefined && !state.streaming ? { ...q.params, at: state.at } : q.params;
      sent[name] = { method: q.method, params };
      return { jsonrpc: '2.0', id: i + 1, method: q.method, params };
    });
    if (batch.length === 0) return;
    let entries: ResponseEntry[];
    try {
      entries = await client.request(batch);
    } catch (error) {
      if (this.link.client === client) this.#status.textContent = `failed: ${(error as Error).message}`;
      return;
    }
    if (this.link.client !== client) return; // the engine was replaced meanwhile
    // following, what the view left out keeps its previous answer; otherwise every answer is new
    const answers: Answers = following ? { ...this.#answers } : {};
    const errors: string[] = [];
    queries.forEach(([name], i) => {
      const entry = entries.find((e) => e.id === i + 1) as { result?: Record<string, unknown>[]; error?: { message: string } } | undefined;
      answers[name] = entry?.result ?? [];
      if (entry?.error) errors.push(`${name}: ${entry.error.message}`);
    });
    this.#answers = answers;
    this.#sent = following ? { ...this.#sent, ...sent } : sent;
    this.spec.render(answers, state);
    this.#answered++;
    this.element.dataset.requests = JSON.stringify(sent);
    this.element.dataset.answered = String(this.#answered);
    this.#status.textContent = errors.length > 0 ? errors.join('; ') : state.at !== undefined && !state.streaming ? `as of ${state.at}` : 'live';
    this.#status.classList.toggle('error', errors.length > 0);
  }

  /** While a replay runs, each of the view's queries is followed through its method's stream. */
  async #follow(): Promise<void> {
    const client = this.link.client;
    const state = this.store.state;
    const queries = state.streaming && client ? Object.values(this.spec.queries(state, false)).filter((q): q is Query => q !== undefined) : [];
    const key = JSON.stringify(queries);
    if (key === this.#streamKey) return;
    this.#streamKey = key;
    const old = this.#streams;
    this.#streams = [];
    await Promise.all(old.map((s) => s.unsubscribe().catch(() => undefined)));
    if (!client) return;
    for (const q of queries) {
      try {
        this.#streams.push(await client.subscribe(q.method as never, q.params, () => this.follow()));
      } catch (error) {
        this.#status.textContent = `stream ${q.method}: ${(error as Error).message}`;
      }
    }
  }

  exportCsv(): void {
    download(`${this.spec.id}-${this.spec.primary}.csv`, new Blob([toCsv(this.#answers[this.spec.primary] ?? [])], { type: 'text/csv' }));
  }

  exportJson(): void {
    const body = Object.fromEntries(Object.entries(this.#sent).map(([name, q]) => [name, { request: q, result: this.#answers[name] ?? [] }]));
    download(`${this.spec.id}.json`, new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
  }

  exportPng(): void {
    const canvas = this.spec.chart?.()?.takeScreenshot();
    canvas?.toBlob((blob) => blob && download(`${this.spec.id}.png`, blob), 'image/png');
  }
}
