#!/usr/bin/env node
// The `chainlens` command: runs the compiled CLI (npm run build first when working from a clone).
import { existsSync } from 'node:fs';
const cli = new URL('../dist/src/bundle/cli.js', import.meta.url);
if (!existsSync(cli)) {
  console.error('chainlens: dist/ is missing; run `npm run build` in the package first');
  process.exit(1);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
