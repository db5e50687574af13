import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'], // one temporary folder a run, removed at its end
    env: { TZ: 'UTC' },
    pool: 'forks', // worker_threads and blocking DuckDB-WASM run in forked test processes
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
