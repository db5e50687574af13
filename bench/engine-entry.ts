/**
 * The package's Node entry as a user's `import ... from 'chainlens'` loads it: the bundle
 * (dist/src/bundle/index.node.js, scripts/bundle.mjs), typed as its source. What the benchmark
 * times from a process's start includes loading it.
 */
export const importChainlens = (): Promise<typeof import('../src/index.node.js')> =>
  import(new URL('../src/bundle/index.node.js', import.meta.url).href);
