/** The package as a consumer sees it: `import { createEngine } from 'chainlens'` (self-reference, built dist). */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('package entry', () => {
  it("resolves 'chainlens' to the Node build and answers a call", () => {
    const script = `
      import { createEngine, connect, METHODS } from 'chainlens';
      const engine = await createEngine();
      const response = await engine.request({ jsonrpc: '2.0', id: 1, method: 'chain::market::token', params: {} });
      console.log(JSON.stringify({ response, methods: METHODS.length, connect: typeof connect }));
      await engine.close();`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ response: [{ jsonrpc: '2.0', id: 1, result: [] }], methods: 12, connect: 'function' });
  });
});
