/**
 * `chainlens ui`: serves the browser app (built by Vite into dist/app) from a local static server
 * and opens it in the default browser. The app runs the engine in the page; the server only hands
 * out its files.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStaticFiles, type StaticFilesServer } from '../server/static-files.js';
import { portOption, stringOption, type ParsedArgs } from './args.js';
import { listenFailure, shutdownSignal } from './listening.js';
import { ExitCode } from './usage.js';

const DEFAULT_PORT = 8788;

/** The app shipped in the package: this module is dist/src/cli/ui.js, the app dist/app. */
const SHIPPED_APP = fileURLToPath(new URL('../../app/', import.meta.url));

export async function uiCommand(args: ParsedArgs): Promise<number> {
  const dir = resolve(stringOption(args, 'dir') ?? SHIPPED_APP);
  const host = stringOption(args, 'host') ?? '127.0.0.1';
  const port = portOption(args) ?? DEFAULT_PORT;
  const index = join(dir, 'index.html');
  if (!statSync(index, { throwIfNoEntry: false })?.isFile()) {
    console.error(`chainlens: no app to serve: ${index} is missing (run \`npm run build\` to build the app into dist/app, or pass --dir a built app folder)`);
    return ExitCode.loadFailed;
  }
  let server: StaticFilesServer;
  try {
    server = await serveStaticFiles(dir, { host, port });
  } catch (error) {
    const failure = listenFailure(error, host, port);
    if (failure === undefined) throw error;
    console.error(`chainlens: ${failure}`);
    return ExitCode.loadFailed;
  }
  // the handlers are in place before the URL is printed: whoever reads it may signal at once
  const stopped = shutdownSignal();
  console.log(`chainlens ui: ${server.url} (Ctrl-C to stop)`);
  if (args.values['no-open'] !== true) openInBrowser(server.url);
  await stopped;
  await server.close();
  return ExitCode.answered;
}

/**
 * Opens `url` in the default browser, fire and forget: the opener is detached and unref'd, so it
 * neither holds this process nor dies with it. When it cannot run (missing, or no display), a hint
 * on stderr says to open the URL by hand; the server keeps serving.
 */
function openInBrowser(url: string): void {
  const hint = () => console.error(`chainlens: could not open a browser; open ${url} by hand`);
  // without a display, xdg-open falls back to a terminal browser, which would fight this one for the terminal
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return hint();
  const [command, commandArgs] =
    process.platform === 'darwin' ? ['open', [url]]
    // `start` is a cmd builtin; its first quoted argument is a window title, hence the empty one; `&` would end cmd's command
    : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
    : ['xdg-open', [url]];
  let hinted = false;
  const failed = () => {
    if (!hinted) hint();
    hinted = true;
  };
  const opener = spawn(command, commandArgs, { detached: true, stdio: 'ignore', windowsHide: true, windowsVerbatimArguments: true });
  opener.on('error', failed);
  opener.on('exit', (code) => {
    if (code !== 0 && code !== null) failed();
  });
  opener.unref();
}
