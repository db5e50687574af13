/** The method table as Markdown, derived from the method definitions (README and docs/methods.md). */
import type { ParamSpec } from '../rpc/params.js';
import { WIRE_DOCS } from '../schema/wire.js';
import { METHODS } from './index.js';

const describeParam = (name: string, spec: ParamSpec): string =>
  spec.kind === 'mint' || spec.kind === 'time' ? `\`${name}\`` : `\`${name}\` (${spec.doc})`;

/** One row per method: name, params, record, summary. */
export function methodTableMarkdown(): string {
  const rows = METHODS.map((m) => {
    const params = Object.entries(m.params).map(([n, s]) => describeParam(n, s)).join(', ');
    return `| \`${m.name}\` | ${params} | ${m.record.name} | ${m.summary} |`;
  });
  return ['| method | params | record | answers |', '|---|---|---|---|', ...rows].join('\n');
}

/** Every record with its fields and wire types. */
export function recordsMarkdown(): string {
  const sections = METHODS.map((m) => {
    const fields = m.record.fields.map(([name, type]) => `| ${name} | ${type} | ${WIRE_DOCS[type]} |`);
    return [`## ${m.record.name} (\`${m.name}\`)`, '', '| field | type | on the wire |', '|---|---|---|', ...fields].join('\n');
  });
  return ['# chainlens methods and records', '', '(generated from src/schema/records.ts and src/methods/ by `npm run docs`)', '', methodTableMarkdown(), '', ...sections].join('\n\n');
}
