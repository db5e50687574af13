import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    env: { TZ: 'UTC' },
    pool: 'forks', // worker_threads and blocking DuckDB-WASM run in forked test processes
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
