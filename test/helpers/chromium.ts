/**
 * Debian's Chromium for the browser tests, through the browser bench family's launcher
 * (bench/browser/chromium.ts): found on the machine (never downloaded), headless, with a page that
 * may reach only one origin; requests elsewhere are refused and recorded, page, worker and console
 * errors collected, so a test can say the page stayed offline and quiet.
 */
import { findChromium, openPage, type BenchPage } from '../../bench/browser/chromium.js';

/**
 * Why a browser test cannot run here, or undefined when it can. Without Chromium the tests fail
 * when CI is set (.ci/run installs it), and elsewhere skip with a warning naming `suite`.
 */
export function chromiumMissing(suite: string): string | undefined {
  if (findChromium()) return undefined;
  const message = "no Chromium at /usr/bin/chromium nor on PATH (chromium, chromium-browser): install Debian's chromium (apt-get install -y chromium; .ci/run does)";
  if (process.env.CI) throw new Error(message);
  console.warn(`${suite} SKIPPED: ${message}`);
  return message;
}

/** A new headless Chromium page allowed to reach `origin` only (and blob:/data: URLs). */
export const openOfflinePage = (origin: string): Promise<BenchPage> => openPage(findChromium()!, origin);
