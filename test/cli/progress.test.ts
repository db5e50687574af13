import { afterEach, describe, expect, it, vi } from 'vitest';
import { progress } from '../../src/cli/progress.js';

/** A stream that is not a terminal (a pipe or a log file), recording what is written. */
const pipe = () => {
  const lines: string[] = [];
  const stream = { isTTY: false, columns: 0, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, lines };
};

describe('progress when stderr is not a terminal', () => {
  afterEach(() => vi.useRealTimers());

  it('writes a plain line every few seconds with the count, the detail and the rate, then the summary', () => {
    vi.useFakeTimers({ now: 0 });
    const { stream, lines } = pipe();
    const bar = progress('loading', 'rows', stream);
    bar.update(1_000, undefined, '3 blocks, 1/4 files'); // too soon after the start: nothing
    expect(lines).toEqual([]);
    vi.setSystemTime(10_000);
    bar.update(50_000, undefined, '40 blocks, 2/4 files');
    expect(lines).toEqual(['loading: 50000 rows, 40 blocks, 2/4 files, 5000 rows/s\n']);
    bar.update(60_000, undefined, '48 blocks, 2/4 files'); // within the interval: nothing more
    bar.done('loaded: 52 blocks');
    expect(lines).toEqual(['loading: 50000 rows, 40 blocks, 2/4 files, 5000 rows/s\n', 'loaded: 52 blocks\n']);
  });
});
