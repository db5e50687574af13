/**
 * Console: any JSON-RPC request, answered with the exact envelope the engine sends (a single
 * request's response object, or a batch's array), with the method list and each method's
 * parameters from the method table.
 */
import { METHODS } from '../../../dist/src/methods/index.js';
import type { ParamSpec } from '../../../dist/src/rpc/params.js';
import { h } from '../dom.js';
import type { EngineLink } from '../engine-link.js';
import type { AppState, Store } from '../state.js';

/** A param's example value in a new request: its default, or a placeholder to fill in. */
function example(spec: ParamSpec, state: AppState): unknown {
  switch (spec.kind) {
    case 'window': return spec.default ?? spec.values[0];
    case 'limit':
    case 'integer':
    case 'flag': return spec.default;
    case 'time': return state.at;
    case 'mint':
    case 'keys':
    case 'text': return undefined;
  }
}

export function consoleView(root: HTMLElement, link: EngineLink, store: Store): void {
  let id = 1;
  const hints = h('div', { class: 'hints' });
  const editor = h('textarea', { name: 'request', rows: 10, spellcheck: false, 'aria-label': 'JSON-RPC request' });
  const response = h('pre', { class: 'response', 'data-console': 'response' });
  const select = h('select', { name: 'method', onchange: () => template() },
    ...METHODS.map((m) => h('option', { value: m.name }, m.name)));

  /** A request for the picked method with its defaults (and the timeline's `at`). */
  function template(): void {
    const method = METHODS.find((m) => m.name === select.value)!;
    const params = Object.fromEntries(Object.entries(method.params)
      .map(([name, spec]) => [name, example(spec, store.state)] as const).filter(([, v]) => v !== undefined));
    editor.value = JSON.stringify({ jsonrpc: '2.0', id: id++, method: method.name, params }, null, 2);
    hints.replaceChildren(h('p', {}, method.summary), h('table', { class: 'params' },
      ...Object.entries(method.params).map(([name, spec]) => h('tr', {}, h('th', {}, name), h('td', {}, spec.doc)))));
  }

  async function send(): Promise<void> {
    const client = link.client;
    if (!client) {
      response.textContent = 'open a dump first';
      return;
    }
    const text = editor.value;
    let single = true;
    try {
      single = !Array.isArray(JSON.parse(text));
    } catch {
      // not JSON: the engine answers -32700, as the service does
    }
    const entries = await client.request(text);
    response.textContent = JSON.stringify(single && entries.length === 1 ? entries[0] : entries, null, 2);
    response.dataset.answered = String(Number(response.dataset.answered ?? 0) + 1);
  }

  root.append(
    h('div', { class: 'panel-head' }, h('label', {}, 'Method ', select),
      h('button', { type: 'button', 'data-console': 'send', onclick: () => void send() }, 'Send'),
      h('span', { class: 'status' }, 'Ctrl+Enter sends')),
    h('div', { class: 'console' }, h('div', {}, editor, hints), response),
  );
  editor.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send();
  });
  template();
}
