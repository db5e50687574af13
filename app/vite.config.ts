/**
 * Builds the browser app (app/) into dist/app: a static single-page app with everything it runs
 * (the chainlens browser entry, DuckDB-WASM's worker bundle, parquet-wasm, the kernels) in its own
 * assets, so that it works from any static host with no network beyond it.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/app', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
    chunkSizeWarningLimit: 8192,
    rollupOptions: {
      // reading a dump by its file path (Node only) imports node:fs behind a dynamic import the
      // browser never takes; Vite says so for each such import: not news
      onLog(level, log, handler) {
        if (log.message.includes('has been externalized for browser compatibility')) return;
        handler(level, log);
      },
    },
  },
  worker: { format: 'es' },
});
