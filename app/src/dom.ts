/** Small DOM helpers: elements, record tables, downloads. */

type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** Creates an element: attributes (`on*` as listeners, booleans as presence), then children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  element.append(...children);
  return element;
}

/** A wire value as shown: strings as they are (exact decimals), null as empty. */
export const cellText = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** A column of a record table: the record's field, shown under `label`. */
export interface Column {
  field: string;
  label?: string;
}

/**
 * Renders records as a table (each cell the wire value, exact). The table carries its answer's
 * name and every cell its field, so a reader (or a test) can match what is shown to an answer.
 */
export function recordTable(name: string, records: readonly Record<string, unknown>[], columns: readonly Column[], maxRows = 100): HTMLTableElement {
  const head = h('tr', {}, ...columns.map((c) => h('th', { title: c.field }, c.label ?? c.field)));
  const rows = records.slice(0, maxRows).map((record) =>
    h('tr', {}, ...columns.map((c) => h('td', { 'data-field': c.field }, cellText(record[c.field])))));
  const table = h('table', { class: 'records', 'data-answer': name, 'data-rows': rows.length }, h('thead', {}, head), h('tbody', {}, ...rows));
  if (records.length > maxRows) table.append(h('caption', {}, `first ${maxRows} of ${records.length}`));
  return table;
}

/** Offers `blob` as a download named `name`. */
export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Records as CSV (RFC 4180 quoting), the fields of the first record as the header. */
export function toCsv(records: readonly Record<string, unknown>[]): string {
  if (records.length === 0) return '';
  const fields = Object.keys(records[0]!);
  const quote = (text: string) => (/[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [fields.join(','), ...records.map((r) => fields.map((f) => quote(cellText(r[f]))).join(','))];
  return lines.join('\r\n') + '\r\n';
}
