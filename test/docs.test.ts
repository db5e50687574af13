import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { methodTableMarkdown, recordsMarkdown } from '../src/methods/docs.js';

describe('generated docs', () => {
  it('README and docs/methods.md match the method table (run `npm run docs` after changing methods)', () => {
    expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain(methodTableMarkdown());
    expect(readFileSync(new URL('../docs/methods.md', import.meta.url), 'utf8')).toBe(recordsMarkdown() + '\n');
  });
});
