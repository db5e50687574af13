// Does DuckDB-WASM (in memory) give back the memory of rows deleted at a moving cut? The question
// behind bounding the priority-fee records by retention (docs/architecture.md, what comes next 6).
// A 144-column table (a block fee record's width) fed BATCHES batches of BATCH rows (1,000); MODE=keep keeps
// every row, MODE=delete deletes the rows older than WINDOW batches after each insert, MODE=checkpoint
// also runs CHECKPOINT every ten batches. Prints DuckDB's own count (duckdb_memory()) and the
// process's WebAssembly memories' resident size (/proc/self/smaps: Linux only; the largest is
// DuckDB-WASM's). After `npm run build`: MODE=delete node scripts/duckdb-retention-probe.mjs
import fs from 'node:fs';
const { openDuckDBNode } = await import(new URL('../dist/src/store/duckdb-node.js', import.meta.url).href);
const c = await openDuckDBNode();
const COLS = 144, BATCH = +(process.env.BATCH || 1000), BATCHES = +(process.env.BATCHES || 300), WINDOW = +(process.env.WINDOW || 60);
const mode = process.env.MODE || 'keep';
await c.run(`CREATE TABLE t (slot BIGINT, ${Array.from({ length: COLS - 1 }, (_, i) => `c${i} DOUBLE`).join(', ')})`);
const M = (x) => Math.round(x / 1048576);
function wasmMappings() {
  const text = fs.readFileSync('/proc/self/smaps', 'utf8');
  let prevGuard = false, thisGuard = false, isWasm = false, named = false, perms = '', addr = ''; const per = {};
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) { addr = line.split('-')[0]; prevGuard = thisGuard; const p = line.split(/\s+/); perms = p[1]; named = p.length > 5 && p[5] !== ''; isWasm = prevGuard && perms === 'rw-p' && !named; thisGuard = false; continue; }
    if (line.startsWith('Size:')) { const size = Number(line.split(/\s+/)[1]); if (perms === '---p' && size >= 1048576) thisGuard = true; }
    else if (line.startsWith('Rss:') && isWasm) per[addr] = Number(line.split(/\s+/)[1]) * 1024;
  }
  return per;
}
for (let b = 0; b < BATCHES; b++) {
  const from = b * BATCH;
  await c.run(`INSERT INTO t SELECT range AS slot, ${Array.from({ length: COLS - 1 }, (_, i) => `random()*${i + 1}`).join(', ')} FROM range(${from}, ${from + BATCH})`);
  if (mode !== 'keep' && b >= WINDOW) {
    await c.run(`DELETE FROM t WHERE slot < ${(b - WINDOW + 1) * BATCH}`);
    if (mode === 'checkpoint' && b % 10 === 0) await c.run('CHECKPOINT');
  }
  if (b % 30 === 29) {
    const rows = await c.queryRows('SELECT count(*)::BIGINT AS n FROM t');
    const mem = await c.queryRows("SELECT sum(memory_usage_bytes)::BIGINT AS m FROM duckdb_memory()").catch((e) => [{ m: String(e.message).slice(0, 60) }]);
    const per = Object.values(wasmMappings()).sort((a, b) => b - a).map(M);
    console.log(mode, 'batch', b + 1, 'rows', String(rows[0].n), 'duckdb_memory', typeof mem[0].m === 'bigint' ? M(Number(mem[0].m)) : mem[0].m, 'wasm MiB', per.slice(0, 3).join(' '));
  }
}
await c.close();
