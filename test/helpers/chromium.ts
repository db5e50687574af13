/**
 * Debian's Chromium through playwright-core, for the browser tests: found on the machine (never
 * downloaded), launched headless, with a page that may reach only one origin. Every request
 * elsewhere (the page's or its workers') is refused and recorded, and page errors and console
 * errors are collected, so a test can say the page stayed offline and quiet.
 */
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, else the first `chromium` or `chromium-browser` on PATH. */
function findChromium(): string | undefined {
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser']) if (existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
const CHROMIUM = findChromium();
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/**
 * Why a browser test cannot run here, or undefined when it can. Without Chromium the tests fail
 * when CI is set (.ci/run installs it), and elsewhere skip with a warning naming `suite`.
 */
export function chromiumMissing(suite: string): string | undefined {
  if (CHROMIUM) return undefined;
  const message = "no Chromium at /usr/bin/chromium nor on PATH (chromium, chromium-browser): install Debian's chromium (apt-get install -y chromium; .ci/run does)";
  if (process.env.CI) throw new Error(message);
  console.warn(`${suite} SKIPPED: ${message}`);
  return message;
}

export interface OfflinePage {
  browser: Browser;
  page: Page;
  /** Requests refused because they were for another origin. */
  offsite: string[];
  /** Uncaught page errors and console errors. */
  errors: string[];
}

/** A new headless Chromium page allowed to reach `origin` only (and blob:/data: URLs). */
export async function openOfflinePage(origin: string, viewport = { width: 1280, height: 900 }): Promise<OfflinePage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  const context = await browser.newContext({ viewport, acceptDownloads: true });
  const offsite: string[] = [];
  const errors: string[] = [];
  const allowed = (url: string) => url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:');
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (allowed(url)) return route.continue();
    offsite.push(url);
    return route.abort();
  });
  context.on('request', (request) => {
    if (!allowed(request.url()) && !offsite.includes(request.url())) offsite.push(request.url());
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { browser, page, offsite, errors };
}
