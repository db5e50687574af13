/**
 * A Solana JSON-RPC server on 127.0.0.1 (an ephemeral port) for the live source's tests: getSlot,
 * getBlocks and getBlock over a fake chain whose blocks are real mainnet blocks (test/fixtures/real/,
 * PROVENANCE.md there), each answered in the encoding asked for from its base64 or json fixture file.
 *
 * The fixtures' own slots are months apart, so the chain places them at slots of the test's choosing
 * (`chain('BB.B', first)`): the slot the engine sees is the slot the server announces (the follower
 * wraps the block with it). Tests that compare with engine.load load the same fixture files named by
 * those slots. Slots without a block (the '.' of a layout) are skipped slots: getBlocks leaves them out
 * and getBlock answers -32007, as a node does.
 *
 * Faults are set per test: a delay per method, the next N calls of a method answered with an HTTP
 * status (429 with Retry-After, 500...), a JSON-RPC error or after a delay; malformed blocks; slots
 * that getBlocks lists but getBlock has no block for; a tip set by hand or advancing on a timer.
 * Every request is recorded (method, params, the HTTP status answered).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJsonExact } from '../../src/ingest/exact-json.js';
import { REAL_DATA } from './real-data.js';

/** The real blocks, in block-time order (the engine wants block times not to go back with slots). */
export const FIXTURE_BLOCKS = [
  'more-blocks/block-100356971',
  'blocks/block-254170887',
  'more-blocks/block-285000037',
  'more-blocks/block-332254855',
  'more-blocks/block-332254908',
] as const;
export type FixtureBlock = (typeof FIXTURE_BLOCKS)[number];
export type Encoding = 'base64' | 'json';
export type Method = 'getSlot' | 'getBlocks' | 'getBlock';

export interface ChainBlock {
  slot: bigint;
  fixture: FixtureBlock;
}

/** The fixture file of a block in an encoding: an absolute path. */
export function fixtureFile(fixture: FixtureBlock, encoding: Encoding): string {
  return `${REAL_DATA}${fixture}.${encoding === 'base64' ? 'base64' : 'json-encoding'}.json`;
}

/**
 * A chain from a layout: 'B' a slot with a block (the fixtures in order), '.' a skipped slot;
 * the first character is slot `first`.
 */
export function chain(layout: string, first: bigint): ChainBlock[] {
  const blocks: ChainBlock[] = [];
  [...layout].forEach((c, i) => {
    if (c === '.') return;
    if (c !== 'B') throw new Error(`chain layout: 'B' or '.', got ${c}`);
    const fixture = FIXTURE_BLOCKS[blocks.length];
    if (fixture === undefined) throw new Error(`chain layout: at most ${FIXTURE_BLOCKS.length} blocks (block times must not go back)`);
    blocks.push({ slot: first + BigInt(i), fixture });
  });
  return blocks;
}

const resultTexts = new Map<string, string>();

/** The getBlock result's JSON text in a fixture file (bare, or inside the envelope it was saved with), read once. */
function resultText(fixture: FixtureBlock, encoding: Encoding): string {
  const file = fixtureFile(fixture, encoding);
  let text = resultTexts.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8').trim();
    const envelope = /^\{"jsonrpc":"2\.0","result":([\s\S]*),"id":\d+\}$/.exec(text);
    if (envelope) text = envelope[1]!;
    else if (!text.startsWith('{"previousBlockhash":')) throw new Error(`${file}: neither a bare getBlock result nor the envelope expected`);
    resultTexts.set(file, text);
  }
  return text;
}

/** How a block is damaged: its transactions field is a number, or its answer is cut in half (still HTTP 200). */
export type Malformation = 'transactions-not-array' | 'truncated';

/** An injected answer for the next `times` calls (of `method`, or of any method). */
export interface Fault {
  method?: Method;
  times: number;
  /** Waits this long first. */
  delayMs?: number;
  /** Answers with this HTTP status (and an empty JSON object). */
  status?: number;
  retryAfter?: string;
  /** Answers with this JSON-RPC error. */
  rpcError?: { code: number; message: string };
}

export interface RecordedRequest {
  method: string;
  params: unknown[];
  /** performance.now() when it arrived. */
  at: number;
  /** The HTTP status answered (undefined while pending or when the client went away first). */
  status?: number;
  /** The JSON-RPC error code answered, if any. */
  rpcError?: number;
}

interface RpcRequest {
  id: unknown;
  method: string;
  params?: unknown[];
}

type Answer = { result: string } | { error: { code: number; message: string } };

export class SolanaRpcServer {
  readonly requests: RecordedRequest[] = [];
  /** Delay before every answer of a method. */
  readonly delays: Partial<Record<Method, number>> = {};
  readonly malformed = new Map<bigint, Malformation>();
  /** Slots getBlocks lists whose getBlock answers this error (-32009 missing in long-term storage...) or a null result. */
  readonly listedWithoutBlock = new Map<bigint, { code: number; message: string } | null>();
  tip: bigint;
  readonly #blocks: Map<bigint, FixtureBlock>;
  readonly #faults: Fault[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    blocks: readonly ChainBlock[],
    tip: bigint,
  ) {
    this.#blocks = new Map(blocks.map((b) => [b.slot, b.fixture]));
    this.tip = tip;
  }

  /** Starts a server over `blocks`; the tip is `tip`, or the last block's slot. */
  static async start(blocks: readonly ChainBlock[], tip?: bigint): Promise<SolanaRpcServer> {
    let rpc: SolanaRpcServer | undefined;
    const server = createServer((req, res) => {
      // a defect of the helper is answered 400, which the follower takes as fatal: the test sees it
      rpc!.#handle(req, res).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`test server: ${error.stack ?? error.message}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    rpc = new SolanaRpcServer(server, `http://127.0.0.1:${port}/`, blocks, tip ?? blocks.at(-1)!.slot);
    return rpc;
  }

  /** Answers the next calls as `fault` says (faults apply in the order added). */
  fail(fault: Fault): void {
    this.#faults.push({ ...fault });
  }

  /** Moves the tip forward by `by` every `everyMs` until it reaches `until`. */
  advanceTip(everyMs: number, until: bigint, by = 1n): void {
    const timer = setInterval(() => {
      this.tip = this.tip + by < until ? this.tip + by : until;
      if (this.tip >= until) this.#clear(timer);
    }, everyMs);
    this.#timers.add(timer);
  }

  /** The recorded requests of `method`. */
  calls(method: Method): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method);
  }

  /** The slots of the getBlock requests, in arrival order (from request `from` on). */
  blockRequests(from = 0): bigint[] {
    return this.requests.slice(from).filter((r) => r.method === 'getBlock').map((r) => BigInt(r.params[0] as number));
  }

  async close(): Promise<void> {
    for (const timer of this.#timers) this.#clear(timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  #clear(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    clearInterval(timer);
    this.#timers.delete(timer);
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => (this.#timers.delete(timer), resolve()), ms);
      this.#timers.add(timer);
    });
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = parseJsonExact(Buffer.concat(chunks).toString('utf8')) as RpcRequest;
    const record: RecordedRequest = { method: request.method, params: request.params ?? [], at: performance.now() };
    this.requests.push(record);
    const fault = this.#faults.find((f) => f.times > 0 && (f.method === undefined || f.method === request.method));
    if (fault) fault.times--;
    const delay = (fault?.delayMs ?? 0) + (this.delays[request.method as Method] ?? 0);
    if (delay > 0) await this.#wait(delay);
    if (req.socket.destroyed || res.destroyed || !this.server.listening) return; // the client went away (a stop) or the test ended

    if (fault?.status !== undefined) {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter && { 'retry-after': fault.retryAfter }) });
      res.end('{}');
      record.status = fault.status;
      return;
    }
    const answer: Answer = fault?.rpcError ? { error: fault.rpcError } : this.#answer(request);
    let body = 'error' in answer
      ? JSON.stringify({ jsonrpc: '2.0', error: answer.error, id: request.id })
      : `{"jsonrpc":"2.0","result":${answer.result},"id":${JSON.stringify(request.id)}}`;
    if (request.method === 'getBlock' && this.malformed.get(BigInt(record.params[0] as number)) === 'truncated') body = body.slice(0, body.length >> 1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
    record.status = 200;
    if ('error' in answer) record.rpcError = answer.error.code;
  }

  #answer(request: RpcRequest): Answer {
    const params = request.params ?? [];
    switch (request.method) {
      case 'getSlot':
        return { result: this.tip.toString() };
      case 'getBlocks': {
        const start = BigInt(params[0] as number);
        const requestedEnd = typeof params[1] === 'object' || params[1] === undefined ? this.tip : BigInt(params[1] as number);
        if (requestedEnd - start > 500_000n) return { error: { code: -32602, message: 'Slot range too large; max 500000' } };
        const end = requestedEnd < this.tip ? requestedEnd : this.tip;
        const listed = [...this.#blocks.keys(), ...this.listedWithoutBlock.keys()].filter((s) => s >= start && s <= end).sort((a, b) => (a < b ? -1 : 1));
        return { result: `[${listed.join(',')}]` };
      }
      case 'getBlock':
        return this.#block(BigInt(params[0] as number), (params[1] ?? {}) as { encoding?: string });
      default:
        return { error: { code: -32601, message: 'Method not found' } };
    }
  }

  #block(slot: bigint, config: { encoding?: string }): Answer {
    if (slot > this.tip) return { error: { code: -32004, message: `Block not available for slot ${slot}` } };
    if (this.listedWithoutBlock.has(slot)) {
      const error = this.listedWithoutBlock.get(slot);
      return error ? { error } : { result: 'null' };
    }
    const fixture = this.#blocks.get(slot);
    if (fixture === undefined) {
      return { error: { code: -32007, message: `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot` } };
    }
    const encoding = config.encoding ?? 'json';
    if (encoding !== 'base64' && encoding !== 'json') return { error: { code: -32602, message: `unsupported encoding ${encoding}` } };
    const text = resultText(fixture, encoding);
    if (this.malformed.get(slot) !== 'transactions-not-array') return { result: text };
    const damaged = text.replace(/"transactions":\s*\[/, '"transactions":7,"transactionList":[');
    if (damaged === text) throw new Error(`${fixture}: no transactions field to damage`);
    return { result: damaged };
  }
}
