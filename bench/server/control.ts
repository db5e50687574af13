/**
 * Long-lived child processes of the server family, steered line by line: the parent writes one
 * command a line on the child's stdin, the child answers each command with one reply line on its
 * stdout (after a first line saying it is ready). The server under test, the bare baseline and the
 * WebSocket clients each run in one, so that the load generator (this process) shares no event loop
 * with what it measures.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { compiledModule, errorLines } from '../child.js';

/** The marker before a reply line (anything else a child prints is ignored). */
const REPLY = 'BENCH-REPLY ';

/** A started child: its first reply, and a command/reply channel. */
export interface Controlled<Ready> {
  readonly pid: number;
  /** The child's first reply (it is up). */
  readonly ready: Promise<Ready>;
  /** Sends a command line; resolves with its reply, rejects with the child's error. */
  send<T = unknown>(command: string, ...args: (string | number)[]): Promise<T>;
  /** Sends `exit`, and waits for the process to end (killing it after `graceMs`). */
  exit(graceMs?: number): Promise<void>;
}

/** Starts `node <module> --child <args...>` (its build in dist/ when given a source module). */
export function startControlled<Ready>(moduleUrl: string, args: readonly string[], options: { nodeArgs?: readonly string[] } = {}): Controlled<Ready> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...(options.nodeArgs ?? []), compiledModule(moduleUrl), '--child', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const waiting: { resolve: (value: unknown) => void; reject: (error: Error) => void }[] = [];
  let ended: Error | undefined;
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const fail = (error: Error) => {
    ended ??= error;
    for (const w of waiting.splice(0)) w.reject(error);
  };
  child.on('error', fail);
  child.on('close', (code, signal) => fail(new Error(`child ${args[0] ?? ''} ended (${signal ?? `exit ${code}`}): ${errorLines(stderr)}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.startsWith(REPLY)) return;
    const reply = JSON.parse(line.slice(REPLY.length)) as { ok: unknown } | { error: string };
    const w = waiting.shift();
    if (!w) return;
    if ('error' in reply) w.reject(new Error(`child ${args[0] ?? ''}: ${reply.error}`));
    else w.resolve(reply.ok);
  });
  const next = <T>() => new Promise<T>((resolve, reject) => {
    if (ended) return reject(ended);
    waiting.push({ resolve: resolve as (value: unknown) => void, reject });
  });
  const ready = next<Ready>();
  ready.catch(() => undefined);
  return {
    pid: child.pid!,
    ready,
    send<T>(command: string, ...rest: (string | number)[]) {
      const reply = next<T>();
      if (!ended) child.stdin.write(`${[command, ...rest].join(' ')}\n`);
      return reply;
    },
    async exit(graceMs = 15_000) {
      if (!ended) child.stdin.end('exit\n');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A child's command handler: the reply (any JSON value) of one command line. */
export type Handler = (command: string, args: string[]) => unknown | Promise<unknown>;

function reply(value: { ok: unknown } | { error: string }): void {
  process.stdout.write(`${REPLY}${JSON.stringify(value)}\n`);
}

/**
 * In a child: replies `ready` once, then answers each stdin line with `handle`, one at a time, in
 * order; `exit` (or the end of stdin) runs `onExit` and ends the process.
 */
export function serveCommands(ready: unknown, handle: Handler, onExit: () => Promise<void> = async () => {}): void {
  reply({ ok: ready });
  let queue = Promise.resolve();
  const lines = createInterface({ input: process.stdin });
  let exiting = false;
  const exit = () => {
    if (exiting) return;
    exiting = true;
    queue = queue.then(onExit).then(() => process.exit(0), (error: unknown) => {
      process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
  };
  lines.on('line', (line) => {
    const [command = '', ...args] = line.trim().split(/\s+/);
    if (command === 'exit') return exit();
    if (command === '') return;
    queue = queue.then(async () => {
      try {
        reply({ ok: (await handle(command, args)) ?? null });
      } catch (error) {
        reply({ error: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  lines.on('close', exit);
}
