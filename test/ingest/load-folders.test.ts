/**
 * What a load does with the files of a folder it cannot load: stray and backup files are skipped
 * with a warning naming them (an error in a strict load), links are followed, and an empty source
 * says so. A file named by itself that cannot be loaded stays an error.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTableFileWriter } from '../../src/ingest/files/node-sink.js';
import { expandSource } from '../../src/ingest/sources.js';
import { loadInputs } from '../../src/ingest/load.js';
import { nodePlatform } from '../../src/platform/node.js';
import { canonicalCsv, load, recordingPipeline, tempDir, writeFiles } from './load-fixtures.js';

const { blocks, transactions } = canonicalCsv([100, 101]);

describe('files a folder holds besides the dump', () => {
  it('skips unknown files with a warning naming each, and loads the rest', async () => {
    const dir = writeFiles(tempDir(), {
      'blocks.csv': blocks, 'transactions.csv': transactions,
      'notes.txt': 'fetched on Monday\n', SHA256SUMS: 'abc  blocks.csv\n', 'README.md': '# dump\n',
    });
    const { report, committed } = await load(dir);
    expect(committed.slots).toEqual([100n, 101n]);
    expect(report.rejected).toBe(0);
    expect(report.warnings).toHaveLength(3);
    for (const name of ['notes.txt', 'SHA256SUMS', 'README.md']) {
      expect(report.warnings.find((w) => w.includes(join(dir, name)))).toMatch(/^skipped .*unknown file format/);
    }
  });

  it('a strict load refuses them, naming each, before reading any row', async () => {
    const dir = writeFiles(tempDir(), { 'blocks.csv': blocks, 'notes.txt': 'x\n', SHA256SUMS: 'y\n' });
    const { pipeline, committed } = recordingPipeline();
    const inputs = await expandSource(dir, nodePlatform.expandPath);
    await expect(loadInputs(inputs, pipeline, { strict: true })).rejects.toThrow(/strict load: 2 files cannot be loaded: .*SHA256SUMS.*notes\.txt/);
    expect(committed.slots).toEqual([]);
  });

  it('a file named by itself that cannot be loaded is an error', async () => {
    const dir = writeFiles(tempDir(), { 'notes.txt': 'x\n' });
    await expect(load(join(dir, 'notes.txt'))).rejects.toThrow(/notes\.txt: unknown file format/);
  });

  it('backup, temporary and hidden copies are not tables: blocks.arrow.bak is not a second blocks table', async () => {
    const dir = writeFiles(tempDir(), { 'blocks.csv': blocks, 'transactions.csv': transactions });
    const copy = canonicalCsv([90]).blocks.replace('slot,timestamp\n', '');
    const ndjson = `{"slot":90,"timestamp":"2026-01-01T00:00:00Z"}\n`;
    writeFiles(dir, { 'blocks.ndjson~': ndjson, '.blocks.ndjson': ndjson, 'blocks.ndjson.orig': ndjson, 'blocks.ndjson.tmp': ndjson,
      'blocks.csv.swp': copy, 'blocks.ndjson.partial': ndjson });
    const writer = await createTableFileWriter(join(dir, 'blocks.arrow.bak'), 'arrow', 'blocks');
    await writer.write([{ slot: 90n, timestamp: 1n, parent_slot: null, block_height: null, leader: null, block_cu_limit: null }]);
    await writer.close();
    const { report, committed } = await load(dir);
    expect(report.rejected).toBe(0);
    expect(committed.slots).toEqual([100n, 101n]);
    expect(report.warnings.find((w) => w.includes('blocks.arrow.bak'))).toMatch(/backup, temporary or partial copy/);
    expect(report.warnings.find((w) => w.includes('.blocks.ndjson'))).toMatch(/hidden file/);
    expect(report.warnings).toHaveLength(7);
  });

  it('a backup named by itself loads: the user chose it', async () => {
    const dir = writeFiles(tempDir(), { 'blocks.ndjson.bak': `{"slot":90,"timestamp":"2026-01-01T00:00:00Z"}\n` });
    const { report, committed } = await load(join(dir, 'blocks.ndjson.bak'));
    expect(report.warnings).toEqual([]);
    expect(committed.slots).toEqual([90n]);
  });
});

describe('links', () => {
  it('follows links to files and folders, once each, and not around a loop', async () => {
    const elsewhere = writeFiles(tempDir(), { 'blocks.csv': blocks });
    mkdirSync(join(elsewhere, 'more'));
    writeFileSync(join(elsewhere, 'more', 'transactions.csv'), transactions);
    const dir = tempDir();
    symlinkSync(join(elsewhere, 'blocks.csv'), join(dir, 'blocks.csv'));
    symlinkSync(join(elsewhere, 'more'), join(dir, 'more'));
    symlinkSync(dir, join(dir, 'loop'));
    symlinkSync(join(elsewhere, 'blocks.csv'), join(dir, 'same-blocks.csv'));
    symlinkSync(join(elsewhere, 'gone.csv'), join(dir, 'broken.csv'));
    const { report, committed } = await load(dir);
    expect(committed.slots).toEqual([100n, 101n]);
    expect(report.ingested).toBe(6);
    expect(report.rejected).toBe(0);
    expect(report.warnings).toEqual([
      `skipped ${join(dir, 'broken.csv')} (a broken symbolic link)`,
      `skipped ${join(dir, 'loop')} (a link to a folder already read (a loop or a second link))`,
      `skipped ${join(dir, 'same-blocks.csv')} (the same file as ${join(dir, 'blocks.csv')})`,
    ]);
  });
});

describe('a source with nothing to load says so', () => {
  it('an empty folder is an error', async () => {
    const dir = tempDir();
    await expect(load(dir)).rejects.toThrow(`cannot load ${dir}: the folder holds no files`);
  });

  it('an empty list is an error', async () => {
    await expect(load([])).rejects.toThrow(/nothing to load/);
  });

  it('a folder whose files are all skipped warns "no loadable files in DIR"', async () => {
    const dir = writeFiles(tempDir(), { 'notes.txt': 'x\n' });
    mkdirSync(join(dir, '.git'));
    const { report } = await load(dir);
    expect(report.read).toBe(0);
    expect(report.warnings).toEqual([
      `skipped ${join(dir, '.git')} (a hidden folder)`,
      expect.stringMatching(/^skipped .*notes\.txt \(unknown file format/),
      `no loadable files in ${dir}`,
    ]);
  });
});

describe('the browser path: Files picked with their folder', () => {
  const file = (name: string, text: string) => {
    const f = new File([text], name);
    Object.defineProperty(f, 'webkitRelativePath', { value: `dump/${name}` });
    return f;
  };

  it('skips a stray file of a picked folder with a warning; a File given alone is an error', async () => {
    const { report, committed } = await load([file('blocks.csv', blocks), file('.DS_Store', '\x00\x00\x00\x01Bud1'), file('notes.txt', 'x')]);
    expect(committed.slots).toEqual([100n, 101n]);
    expect(report.warnings).toEqual([
      'skipped .DS_Store (a hidden file)',
      expect.stringMatching(/^skipped notes\.txt \(unknown file format/),
    ]);
    await expect(load(new File(['x'], 'notes.txt'))).rejects.toThrow(/notes\.txt: unknown file format/);
  });
});
