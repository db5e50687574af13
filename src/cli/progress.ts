/** A one-line progress bar on stderr, drawn only when stderr is a terminal. */

export interface Progress {
  update(done: number, total?: number, label?: string): void;
  done(message?: string): void;
}

export function progressBar(stream: NodeJS.WriteStream = process.stderr): Progress {
  const live = Boolean(stream.isTTY);
  let last = 0;
  return {
    update(done, total, label = '') {
      const now = Date.now();
      if (!live || now - last < 100) return;
      last = now;
      const width = 30;
      const bar = total
        ? `[${'#'.repeat(Math.round((done / total) * width)).padEnd(width, '.')}] ${Math.floor((100 * done) / total)}%`
        : `${done}`;
      stream.write(`\r${bar} ${label}`.slice(0, (stream.columns ?? 80) - 1).padEnd((stream.columns ?? 80) - 1));
    },
    done(message) {
      if (live) stream.write('\r'.padEnd((stream.columns ?? 80) - 1) + '\r');
      if (message) stream.write(message + '\n');
    },
  };
}
