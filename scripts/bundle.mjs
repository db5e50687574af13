// Bundles, after tsc, what Node starts often into few modules: loading a graph of hundreds of small
// modules is most of a short run's start-up.
// - The kernel worker: dist/workers/kernel.worker.node.js. A worker thread loads its module graph
//   anew on every start, and the kernel worker starts often: with each load (twice: the decoder and
//   the kernels), and again for a read back of a file or after a large fee window ended the last one.
//   As ~90 modules a start took ~150 ms to its first answer on an idle machine; as one ~60.
// - The package's Node entry and the CLI: dist/src/bundle/ (index.node.js, cli.js and the chunks
//   they share or load lazily). As ~330 modules (146 of them apache-arrow's) their import took
//   ~200 ms; bundled ~50. The bundle sits two folders below dist/ like every compiled module, so
//   the paths the modules find their workers and files by (compiledWorkerUrl, the app, package.json)
//   hold in it. DuckDB-WASM and parquet-wasm stay outside (they find their wasm next to their own
//   files), and so does ws (its optional native add-ons are found by require).
// Browsers keep dist/workers/kernel.worker.js and dist/src/index.browser.js, which their bundlers bundle.
import { build } from 'rolldown';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = (relative) => fileURLToPath(new URL(relative, new URL('../', import.meta.url)));

await build({
  input: path('dist/workers/kernel.worker.js'),
  platform: 'node',
  output: { file: path('dist/workers/kernel.worker.node.js'), format: 'esm', codeSplitting: false, sourcemap: true },
  logLevel: 'warn',
});

// emptied first: its chunks are named by their hash, and an earlier build's would stay beside them
rmSync(path('dist/src/bundle'), { recursive: true, force: true });
await build({
  input: { 'index.node': path('dist/src/index.node.js'), cli: path('dist/src/cli/main.js') },
  platform: 'node',
  external: [/^@duckdb\//, /^parquet-wasm/, /^ws$/],
  output: { dir: path('dist/src/bundle'), format: 'esm', sourcemap: true, chunkFileNames: '[name]-[hash].js' },
  logLevel: 'warn',
});
