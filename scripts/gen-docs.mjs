// Regenerates docs/methods.md and the method table in README.md from the compiled method table.
import { readFileSync, writeFileSync } from 'node:fs';
const { methodTableMarkdown, recordsMarkdown } = await import('../dist/src/methods/docs.js');
const root = new URL('../', import.meta.url);
writeFileSync(new URL('docs/methods.md', root), recordsMarkdown() + '\n');
const readmeUrl = new URL('README.md', root);
const readme = readFileSync(readmeUrl, 'utf8');
const updated = readme.replace(/(<!-- methods:start -->)[\s\S]*?(<!-- methods:end -->)/, (_, start, end) => `${start}\n${methodTableMarkdown()}\n${end}`);
writeFileSync(readmeUrl, updated);
