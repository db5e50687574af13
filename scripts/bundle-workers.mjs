// Bundles the Node kernel worker into one module, dist/workers/kernel.worker.node.js, after tsc.
// A worker thread loads its module graph anew on every start, and the kernel worker starts often: with
// each load (twice: the decoder and the kernels), and again for a read back of a file or after a large
// fee window ended the last one. As ~90 modules (comlink, apache-arrow, the kernels) a start took
// ~150 ms to its first answer on an idle machine; as one module ~60. Browsers keep
// dist/workers/kernel.worker.js, which their bundlers bundle themselves.
import { build } from 'rolldown';
import { fileURLToPath } from 'node:url';

const path = (relative) => fileURLToPath(new URL(relative, new URL('../', import.meta.url)));

await build({
  input: path('dist/workers/kernel.worker.js'),
  platform: 'node',
  output: { file: path('dist/workers/kernel.worker.node.js'), format: 'esm', codeSplitting: false },
  logLevel: 'warn',
});
