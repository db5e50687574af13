/**
 * Many WebSocket subscribers in one process (apart from the server they measure): opens `count`
 * sockets to the server, subscribes each to one method's stream, and counts what every socket
 * receives: pushes and their data points per socket, and per block (slot) how many sockets got it,
 * first and last arrival (wall clock, comparable with the server process's).
 *
 * `node ws-clients.js --child <url> <token> <count> <method> <params JSON>`; commands: `report`, `exit`.
 */
import { WebSocket } from 'ws';
import { childArgs, isChildOf, rssMiB } from '../child.js';
import { serveCommands } from './control.js';

/** The subscribers' counts. */
export interface ClientsReport {
  sockets: number;
  subscribed: number;
  /** Pushes (frames carrying data points) received over all sockets, and the fewest and most of one socket. */
  pushes: number;
  pushes_min: number;
  pushes_max: number;
  /** Data points (result entries) received, fewest and most of one socket. */
  points_min: number;
  points_max: number;
  /** Subscriptions the server ended (a push carrying an error), sockets closed by the server, socket errors. */
  ended: number;
  closed: number;
  errors: number;
  /** Per block: [slot, sockets that got it, first arrival, last arrival] (wall ms). */
  slots: [string, number, number, number][];
  rss_mib: number;
  cpu_s: number;
}

const wallMs = (): number => performance.timeOrigin + performance.now();

interface Push {
  method?: string;
  params?: { subscription: number; result?: unknown[]; error?: unknown; block?: { slot: string } };
}

async function main(url: string, token: string, count: number, method: string, params: Record<string, unknown>): Promise<void> {
  const wsUrl = url.replace(/^http/, 'ws');
  const pushes = new Uint32Array(count);
  const points = new Uint32Array(count);
  const slots = new Map<string, [number, number, number]>();
  let ended = 0;
  let closed = 0;
  let errors = 0;
  let exiting = false;
  const sockets: WebSocket[] = [];
  const subscribe = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'chain::subscribe', params: { method, params } });

  const open = (k: number) => new Promise<boolean>((resolve) => {
    const ws = new WebSocket(wsUrl, { headers: { Authorization: `Bearer ${token}` }, perMessageDeflate: false });
    sockets[k] = ws;
    let subscribed = false;
    ws.on('open', () => ws.send(subscribe));
    ws.on('message', (data) => {
      const now = wallMs();
      const message = JSON.parse((data as Buffer).toString('utf8')) as Push | { result?: unknown; error?: unknown }[];
      if (Array.isArray(message)) {
        // the reply to the subscribe request
        subscribed = typeof message[0]?.result === 'number';
        return resolve(subscribed);
      }
      if (message.method !== 'chain::subscription' || !message.params) return;
      if (message.params.error !== undefined) {
        ended++;
        return;
      }
      pushes[k]!++;
      points[k]! += message.params.result?.length ?? 0;
      const slot = message.params.block?.slot;
      if (slot === undefined) return;
      const seen = slots.get(slot);
      if (seen) {
        seen[0]++;
        seen[2] = now;
      } else slots.set(slot, [1, now, now]);
    });
    ws.on('close', () => {
      if (!exiting) closed++;
      if (!subscribed) resolve(false);
    });
    ws.on('error', () => {
      errors++;
      resolve(false);
    });
  });

  const started = performance.now();
  let subscribed = 0;
  // a hundred handshakes at a time: the listen backlog, and no burst the server would not see from real clients
  for (let k = 0; k < count; k += 100) {
    const batch = await Promise.all(Array.from({ length: Math.min(100, count - k) }, (_, i) => open(k + i)));
    subscribed += batch.filter(Boolean).length;
  }
  const ready = { sockets: sockets.filter((s) => s.readyState === WebSocket.OPEN).length, subscribed, open_seconds: (performance.now() - started) / 1000, rss_mib: rssMiB() };
  serveCommands(ready, (command) => {
    if (command !== 'report') throw new Error(`unknown command ${command}`);
    let min = Infinity;
    let max = 0;
    let total = 0;
    for (const n of pushes) {
      min = Math.min(min, n);
      max = Math.max(max, n);
      total += n;
    }
    const usage = process.resourceUsage();
    return {
      sockets: count, subscribed, pushes: total, pushes_min: min, pushes_max: max,
      points_min: Math.min(...points), points_max: Math.max(...points), ended, closed, errors,
      slots: [...slots].map(([slot, [n, first, last]]) => [slot, n, first, last]),
      rss_mib: rssMiB(), cpu_s: (usage.userCPUTime + usage.systemCPUTime) / 1e6,
    } satisfies ClientsReport;
  }, async () => {
    exiting = true;
    await Promise.all(sockets.map((ws) => new Promise<void>((resolve) => {
      if (ws.readyState === WebSocket.CLOSED) return resolve();
      ws.once('close', () => resolve());
      ws.close(1000);
      setTimeout(() => (ws.terminate(), resolve()), 2_000).unref();
    })));
  });
}

if (isChildOf(import.meta.url)) {
  const [url, token, count, method, params] = childArgs();
  await main(url!, token!, Number(count), method!, JSON.parse(params!) as Record<string, unknown>);
}
