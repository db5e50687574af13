/**
 * Progress on stderr: a bar redrawn in place when stderr is a terminal, otherwise a plain line
 * every few seconds (a log or a pipe keeps a readable record).
 */

/** A task's progress, counted in one unit (rows, blocks). */
export interface Progress {
  /** `done` units so far, of `total` when known; `detail` follows the count. */
  update(done: number, total?: number, detail?: string): void;
  /** Ends the progress (clears the bar) and prints `summary`, if any, on its own line. */
  done(summary?: string): void;
}

/** Milliseconds between two plain lines. */
const PLAIN_INTERVAL = 5_000;
/** Milliseconds between two redraws of the bar. */
const BAR_INTERVAL = 100;

/** Progress of `task` ("loading") counted in `unit` ("rows"), written to `stream`. */
export function progress(task: string, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const live = Boolean(stream.isTTY);
  const started = Date.now();
  let last = started;
  const width = () => (stream.columns || 80) - 1; // a pseudo-terminal may report 0 columns
  return {
    update(done, total, detail) {
      const now = Date.now();
      if (now - last < (live ? BAR_INTERVAL : PLAIN_INTERVAL)) return;
      last = now;
      const count = `${done}${total ? `/${total}` : ''} ${unit}`;
      const rate = `${Math.round(done / ((now - started) / 1000))} ${unit}/s`;
      const text = `${task}: ${count}${detail ? `, ${detail}` : ''}, ${rate}`;
      if (!live) stream.write(text + '\n');
      else {
        const bar = total ? `[${'#'.repeat(Math.round((Math.min(done, total) / total) * 30)).padEnd(30, '.')}] ` : '';
        stream.write(`\r${bar}${text}`.slice(0, width()).padEnd(width()));
      }
    },
    done(summary) {
      if (live) stream.write('\r'.padEnd(width()) + '\r');
      if (summary) stream.write(summary + '\n');
    },
  };
}
