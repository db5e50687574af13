/** What the command line says about a load: the rejections up to a bound, every warning, and the NDJSON file. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportProblems, SHOWN_REJECTIONS } from '../../src/cli/load-report.js';
import { emptyReport } from '../../src/ingest/pipeline.js';

const reportWith = (rejected: number, warnings: string[]) => {
  const report = emptyReport();
  for (let row = 1; row <= rejected; row++) report.rejections.push({ source: 'trades.csv', row, field: row % 2 ? 'price' : '', message: 'bad' });
  report.rejected = rejected;
  report.warnings.push(...warnings);
  return report;
};

describe('reportProblems', () => {
  it(`prints the first ${SHOWN_REJECTIONS} rejections, how many more, and every warning`, async () => {
    const lines: string[] = [];
    await reportProblems(reportWith(SHOWN_REJECTIONS + 5, ['one', 'two']), undefined, (line) => lines.push(line));
    expect(lines).toHaveLength(SHOWN_REJECTIONS + 3);
    expect(lines[0]).toBe('rejected trades.csv:1 price: bad');
    expect(lines[1]).toBe('rejected trades.csv:2: bad');
    expect(lines[SHOWN_REJECTIONS]).toBe('... and 5 more rejected rows (--rejections FILE writes them all)');
    expect(lines.slice(-2)).toEqual(['warning: one', 'warning: two']);
  });

  it('writes every rejection to the file, one JSON object per line, and an empty file when there are none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-report-'));
    const lines: string[] = [];
    await reportProblems(reportWith(SHOWN_REJECTIONS + 5, []), join(dir, 'all.ndjson'), (line) => lines.push(line));
    expect(lines.at(-1)).toBe(`... and 5 more rejected rows (all in ${join(dir, 'all.ndjson')})`);
    const written = readFileSync(join(dir, 'all.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(written).toHaveLength(SHOWN_REJECTIONS + 5);
    expect(written[1]).toEqual({ source: 'trades.csv', row: 2, field: '', message: 'bad' });
    await reportProblems(reportWith(0, []), join(dir, 'none.ndjson'), () => undefined);
    expect(readFileSync(join(dir, 'none.ndjson'), 'utf8')).toBe('');
  });
});
