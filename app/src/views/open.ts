/**
 * Opening data: a file picker, a folder picker and drag and drop (files or whole folders) hand
 * the files to the engine worker; a progress bar follows the load (files, rows, blocks, rate),
 * and the report lists every warning and the refused rows, not just their count.
 */
import { h } from '../dom.js';
import type { LoadResult, LoadStatus, OpenFile } from '../host-api.js';

export interface OpenHandlers {
  /** Loads the files; `progress` is called after each committed chunk. */
  open(files: OpenFile[], progress: (status: LoadStatus) => void): Promise<LoadResult>;
  /** Called once the load's outcome is shown. */
  loaded(result: LoadResult): void;
}

export function openView(root: HTMLElement, report: HTMLElement, drop: HTMLElement, handlers: OpenHandlers): void {
  const fileInput = h('input', { type: 'file', multiple: true, name: 'files', hidden: true });
  const folderInput = h('input', { type: 'file', name: 'folder', webkitdirectory: true, hidden: true });
  const bar = h('progress', { max: 1, value: 0, hidden: true });
  const status = h('span', { class: 'load-status', 'data-load': 'idle' }, 'Open a dump, or drop one anywhere');
  root.append(
    h('button', { type: 'button', onclick: () => fileInput.click() }, 'Open files'),
    h('button', { type: 'button', onclick: () => folderInput.click() }, 'Open folder'),
    fileInput, folderInput, bar, status,
  );

  async function load(files: OpenFile[]): Promise<void> {
    if (files.length === 0) return;
    status.dataset.load = 'loading';
    status.textContent = `opening ${files.length} file${files.length === 1 ? '' : 's'}…`;
    bar.hidden = false;
    bar.removeAttribute('value'); // indeterminate until the first chunk
    report.replaceChildren();
    let done = false;
    const result = await handlers.open(files, (p) => {
      if (done) return; // progress comes on its own channel: it may arrive after the result
      bar.max = p.totalFiles;
      bar.value = p.files;
      const rate = p.seconds > 0 ? Math.round(p.blocks / p.seconds) : 0;
      status.textContent = `${p.files}/${p.totalFiles} files · ${p.rows.toLocaleString('en')} rows · ${p.blocks.toLocaleString('en')} blocks · ${rate.toLocaleString('en')} blocks/s`;
    });
    done = true;
    bar.hidden = true;
    status.dataset.load = result.error ? 'failed' : 'loaded';
    status.textContent = result.error
      ? `load failed: ${result.error}`
      : `${result.blocks.toLocaleString('en')} blocks · ${result.ingested.toLocaleString('en')} rows in ${result.seconds.toFixed(1)} s` +
        (result.rejected > 0 ? ` · ${result.rejected.toLocaleString('en')} rejected` : '') +
        (result.warnings.length > 0 ? ` · ${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}` : '');
    showReport(report, result);
    handlers.loaded(result);
  }

  fileInput.addEventListener('change', () => void load([...fileInput.files!].map((file) => ({ file, path: '' }))));
  folderInput.addEventListener('change', () => void load([...folderInput.files!].map((file) => ({ file, path: file.webkitRelativePath }))));

  // drag and drop anywhere on the page
  let depth = 0;
  document.addEventListener('dragenter', (event) => {
    event.preventDefault();
    if (depth++ === 0) drop.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    if (--depth === 0) drop.hidden = true;
  });
  document.addEventListener('dragover', (event) => event.preventDefault());
  document.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    drop.hidden = true;
    const entries = [...(event.dataTransfer?.items ?? [])].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
    // files with no entry (dropped by a script, or a browser without entries) still come as files
    if (entries.length === 0) void load([...(event.dataTransfer?.files ?? [])].map((file) => ({ file, path: '' })));
    else void filesOf(entries).then(load);
  });
}

/** The files of dropped entries, folders walked (each file with its path from the dropped folder). */
async function filesOf(entries: readonly FileSystemEntry[]): Promise<OpenFile[]> {
  const out: OpenFile[] = [];
  const walk = async (entry: FileSystemEntry): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
      const path = entry.fullPath.replace(/^\//, ''); // a dropped folder's files are under its name
      out.push({ file, path: path.includes('/') ? path : '' });
      return;
    }
    const reader = (entry as FileSystemDirectoryEntry).createReader();
    for (;;) { // readEntries answers in pages until an empty one
      const page = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (page.length === 0) break;
      for (const child of page) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  return out;
}

/** The load's outcome: counts, every warning, the refused rows (source, row, field, why). */
function showReport(root: HTMLElement, result: LoadResult): void {
  const counts = h('p', { 'data-report': 'counts' },
    `read ${result.read} · ingested ${result.ingested} · rejected ${result.rejected} · blocks ${result.blocks}` +
    (result.firstTime ? ` · ${result.firstTime} to ${result.lastTime}` : ''));
  root.append(h('h3', {}, 'Last load'), counts);
  if (result.error) root.append(h('p', { class: 'error', 'data-report': 'error' }, result.error));
  if (result.warnings.length > 0) {
    root.append(h('h4', {}, `Warnings (${result.warnings.length})`), h('ul', { 'data-report': 'warnings' }, ...result.warnings.map((w) => h('li', {}, w))));
  }
  if (result.rejections.length > 0) {
    const rows = result.rejections.map((r) => h('tr', {}, h('td', {}, r.source), h('td', {}, String(r.row)), h('td', {}, r.field), h('td', {}, r.message)));
    root.append(
      h('h4', {}, `Rejected rows (${result.rejected}${result.rejected > result.rejections.length ? `, the first ${result.rejections.length} listed` : ''})`),
      h('table', { class: 'records', 'data-report': 'rejections' },
        h('thead', {}, h('tr', {}, h('th', {}, 'file'), h('th', {}, 'row'), h('th', {}, 'field'), h('th', {}, 'message'))), h('tbody', {}, ...rows)),
    );
  }
}
