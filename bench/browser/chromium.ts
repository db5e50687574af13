/**
 * Debian's Chromium through playwright-core for the browser family (bench/ is built apart from
 * test/, so this is its own small launcher): found on the machine, never downloaded, headless, a
 * page that may reach one origin only, its errors collected (the page's, its workers' and any
 * crash), and the resident memory of the whole browser process tree sampled from /proc.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';

/** Debian's Chromium, else the first `chromium` or `chromium-browser` on PATH. */
export function findChromium(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A fresh browser with one page, what it logged, and its process tree's memory. */
export interface BenchPage {
  browser: Browser;
  page: Page;
  /** Uncaught page errors, console errors (the page's and its workers'), a crash; in order. */
  errors: string[];
  /** Requests refused because they were for another origin. */
  offsite: string[];
  /** Set when the page's renderer crashed. */
  crashed: () => boolean;
  /** The memory at the last sample before the crash (the renderer's then), once it crashed. */
  atCrash: () => { tree_mib: number; tree_pss_mib: number; renderer_mib: number; peak_renderer_mib: number } | undefined;
  memory: TreeMemory;
  close(): Promise<void>;
}

/** A new headless Chromium (`executable`) with a page allowed to reach `origin` only (and blob:/data: URLs). */
export async function openPage(executable: string, origin: string, viewport = { width: 1280, height: 900 }): Promise<BenchPage> {
  const before = new Set(childrenOf(process.pid));
  const browser = await chromium.launch({ executablePath: executable, args: FLAGS, headless: true });
  // playwright-core starts the browser as a child of this process (its Browser no longer names the pid)
  const pid = childrenOf(process.pid).find((p) => !before.has(p) && /chrom/i.test(commandOf(p)));
  if (pid === undefined) {
    await browser.close();
    throw new Error('browser: no new Chromium process under this one to measure');
  }
  const memory = new TreeMemory(pid);
  const context = await browser.newContext({ viewport });
  const errors: string[] = [];
  const offsite: string[] = [];
  const allowed = (url: string) => url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:');
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  let crashed = false;
  let atCrash: ReturnType<BenchPage['atCrash']>;
  // the page's console carries its workers' too (nested ones included), and its errors their uncaught ones
  page.on('pageerror', (error) => errors.push(`page: ${String(error)}`));
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(`console${message.worker() ? ` (worker ${message.worker()!.url().replace(/^.*\//, '')})` : ''}: ${message.text()}`);
  });
  page.on('crash', () => {
    crashed = true;
    memory.sample(); // the crashed renderer is gone: its last sample is among the vanished
    const gone = memory.vanished.reduce<TreeMemory['vanished'][number] | undefined>((a, v) => (a && a.rss_mib >= v.rss_mib ? a : v), undefined);
    atCrash = gone
      ? { tree_mib: gone.tree_mib, tree_pss_mib: gone.tree_pss_mib, renderer_mib: gone.rss_mib, peak_renderer_mib: gone.peak_mib }
      : { tree_mib: memory.lastMiB, tree_pss_mib: memory.lastPssMiB, renderer_mib: memory.lastRendererMiB, peak_renderer_mib: memory.peakRendererMiB };
    errors.push(`page: the renderer crashed (at its last sample: ${atCrash.renderer_mib.toFixed(0)} MiB RSS, the browser's processes ${atCrash.tree_mib.toFixed(0)} MiB)`);
  });
  memory.start();
  return {
    browser, page, errors, offsite, memory,
    crashed: () => crashed,
    atCrash: () => atCrash,
    async close() {
      memory.stop();
      await browser.close().catch(() => undefined);
    },
  };
}

/** The pids whose parent is `parent`. */
function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

const kib = (text: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

/**
 * Resident memory of a process and all its descendants, from /proc every `everyMs`: the peaks of
 * the sums of their RSS and of their PSS (as sampled), and the greatest renderer's own peak (VmHWM,
 * exact: the kernel's). The
 * renderer of the page holds the page, the app's engine worker and the workers it starts
 * (DuckDB-WASM's, the kernels'): dedicated workers are threads of their page's renderer.
 */
export class TreeMemory {
  /** The sum of the processes' resident sets (pages shared between them counted in each). */
  peakMiB = 0;
  lastMiB = 0;
  /** The sum of their proportional sets (each shared page split between its sharers): the tree's own memory. */
  peakPssMiB = 0;
  lastPssMiB = 0;
  /** The biggest renderer now, and the greatest peak (VmHWM) a renderer reached. */
  lastRendererMiB = 0;
  peakRendererMiB = 0;
  processes = 0;
  /**
   * Renderers that went away (a crash, or a page closed), each as its last sample saw it: its RSS and
   * own peak then, and the tree's sums in that sample.
   */
  readonly vanished: { pid: number; rss_mib: number; peak_mib: number; tree_mib: number; tree_pss_mib: number }[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;
  #types = new Map<number, string>();
  #renderers = new Map<number, { rss_mib: number; peak_mib: number }>();

  constructor(readonly root: number, readonly everyMs = 200) {}

  start(): void {
    this.sample();
    this.#timer = setInterval(() => this.sample(), this.everyMs);
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One sample: the tree under the root, each process's VmRSS summed. */
  sample(): void {
    const children = new Map<number, number[]>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        continue; // gone meanwhile
      }
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    }
    let total = 0;
    let pss = 0;
    let renderer = 0;
    let count = 0;
    const renderers = new Map<number, { rss_mib: number; peak_mib: number }>();
    const queue = [this.root];
    while (queue.length) {
      const pid = queue.pop()!;
      queue.push(...(children.get(pid) ?? []));
      let status: string;
      try {
        status = readFileSync(`/proc/${pid}/status`, 'utf8');
      } catch {
        continue;
      }
      count++;
      const rss = kib(status, 'VmRSS') / 1024;
      total += rss;
      try {
        pss += kib(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss') / 1024;
      } catch {
        pss += rss; // gone meanwhile, or no smaps_rollup: its RSS
      }
      if (this.#type(pid) === 'renderer') {
        const peak = kib(status, 'VmHWM') / 1024;
        renderer = Math.max(renderer, rss);
        this.peakRendererMiB = Math.max(this.peakRendererMiB, peak);
        renderers.set(pid, { rss_mib: rss, peak_mib: peak });
      }
    }
    if (count === 0) return; // the browser has gone: keep the last sample
    for (const [pid, last] of this.#renderers) {
      if (!renderers.has(pid)) this.vanished.push({ pid, ...last, tree_mib: this.lastMiB, tree_pss_mib: this.lastPssMiB });
    }
    this.#renderers = renderers;
    this.lastMiB = total;
    this.lastRendererMiB = renderer;
    this.processes = count;
    this.peakMiB = Math.max(this.peakMiB, total);
    this.lastPssMiB = pss;
    this.peakPssMiB = Math.max(this.peakPssMiB, pss);
  }

  /** Chromium's process type (`--type=renderer`, `gpu-process`, ...; the browser itself has none). */
  #type(pid: number): string {
    let type = this.#types.get(pid);
    if (type === undefined) {
      try {
        type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      } catch {
        type = 'unknown';
      }
      this.#types.set(pid, type);
    }
    return type;
  }
}
