/**
 * The chainlens app: open a dump in the page (the engine runs in a Web Worker, nothing leaves the
 * page), then look at the market and the fees as of any time, replay them, or ask the engine
 * directly. The views are panels over one engine client (panel.ts).
 */
import './style.css';
import { proxy } from 'comlink';
import { h } from './dom.js';
import { EngineLink } from './engine-link.js';
import type { LoadResult, LoadStatus } from './host-api.js';
import { Panel } from './panel.js';
import { Store } from './state.js';
import { consoleView } from './views/console.js';
import { feesView } from './views/fees.js';
import { marketView } from './views/market.js';
import { openView } from './views/open.js';
import { timelineView } from './views/timeline.js';

const byId = (id: string) => document.getElementById(id)!;
const store = new Store();
const link = new EngineLink();
const panels = [new Panel(marketView(), store, link), new Panel(feesView(), store, link)];

const consoleRoot = h('section', { class: 'panel', 'data-view': 'console', hidden: true });
consoleView(consoleRoot, link, store);
const reportRoot = h('section', { class: 'panel report', 'data-view': 'report', hidden: true }, h('p', {}, 'No data yet.'));
const views = byId('views');
views.append(...panels.map((p) => p.element), consoleRoot, reportRoot);

const TABS = [
  ...panels.map((p) => ({ id: p.spec.id, title: p.spec.title })),
  { id: 'console', title: 'Console' }, { id: 'report', title: 'Load report' },
];
const tabs = byId('tabs');
function showTab(id: string): void {
  for (const button of tabs.querySelectorAll('button')) button.setAttribute('aria-selected', String(button.dataset.tab === id));
  for (const panel of panels) panel.show(panel.spec.id === id);
  consoleRoot.hidden = id !== 'console';
  reportRoot.hidden = id !== 'report';
}
tabs.append(...TABS.map((t) => h('button', { type: 'button', role: 'tab', 'data-tab': t.id, onclick: () => showTab(t.id) }, t.title)));
showTab('market');

const timeline = timelineView(byId('timeline'), link, store, settled);
store.listen((_, changed) => {
  if (changed.has('firstTime') || changed.has('lastTime') || changed.has('streaming')) timeline.spanChanged();
});

/** After a load or a replay: the span it covered, fresh answers everywhere. */
function settled(result: LoadResult): void {
  store.update({ firstTime: result.firstTime, lastTime: result.lastTime });
  timeline.spanChanged();
  for (const panel of panels) panel.invalidate();
  document.body.dataset.ready = String(Number(document.body.dataset.ready ?? 0) + 1);
}

openView(byId('open'), reportRoot, byId('drop'), {
  async open(files, progress) {
    link.drop();
    timeline.reset();
    store.update({ at: undefined, streaming: false, firstTime: undefined, lastTime: undefined });
    let connected: Promise<unknown> | undefined;
    const result = await link.host.open(files, proxy((status: LoadStatus) => {
      progress(status);
      // the engine answers while it loads: show what is committed so far
      connected ??= link.renew();
      void connected.then(() => panels.forEach((p) => p.follow()));
    }));
    if (!connected && !result.error) await link.renew();
    else await connected;
    return result;
  },
  loaded: settled,
});

