/**
 * `chainlens serve` and `chainlens token`: the HTTP + WebSocket server with its admin channel, and
 * the admin channel's client. State (tokens, admin socket, the RPC follower's cursor) lives in one
 * folder, `--state` (default ./.chainlens).
 */
import { join } from 'node:path';
import { createEngine, type Engine } from '../index.node.js';
import { followSolanaRpc, type Follower, type FollowOptions } from '../live/solana-rpc.js';
import { adminCall, AdminError, serveAdmin } from '../server/admin.js';
import { DEFAULT_HOST, DEFAULT_PORT, serve } from '../server/server.js';
import { TokenStore, type TokenInfo } from '../server/tokens.js';
import { choiceOption, numberOption, portOption, stringOption, stringsOption, UsageError, type ParsedArgs } from './args.js';
import { listenFailure, shutdownSignal } from './listening.js';
import { loadWithProgress } from './load.js';
import { progress } from './progress.js';
import { ExitCode } from './usage.js';

const DEFAULT_STATE = '.chainlens';

/** Where a server's state lives. */
const statePaths = (args: ParsedArgs) => {
  const state = stringOption(args, 'state') ?? DEFAULT_STATE;
  return { tokens: join(state, 'tokens.json'), admin: stringOption(args, 'admin') ?? join(state, 'admin.sock'), cursor: join(state, 'rpc-cursor.json') };
};

/** `--demo-rate 10/20`: requests per second / burst. */
function demoRate(args: ParsedArgs) {
  const text = stringOption(args, 'demo-rate');
  if (text === undefined) return undefined;
  const match = /^(\d+(?:\.\d+)?)(?:\/(\d+))?$/.exec(text);
  if (!match || !(Number(match[1]) > 0)) throw new UsageError(`--demo-rate must be PER_SECOND[/BURST], e.g. 10/20, got '${text}'`);
  const perSecond = Number(match[1]);
  return { perSecond, burst: match[2] ? Number(match[2]) : Math.max(1, Math.ceil(perSecond * 2)) };
}

export async function serveCommand(args: ParsedArgs): Promise<number> {
  const paths = statePaths(args);
  const retainText = stringOption(args, 'retain');
  const retain = retainText === undefined ? undefined : /^\d+$/.test(retainText) ? Number(retainText) : retainText;
  const tokens = await TokenStore.open(paths.tokens);
  const engine = await createEngine({ retain });
  const stopping = new AbortController();
  try {
    const host = stringOption(args, 'host') ?? DEFAULT_HOST;
    const port = portOption(args) ?? DEFAULT_PORT;
    let server: Awaited<ReturnType<typeof serve>>;
    try {
      server = await serve(engine, {
        host, port, tokens,
        demoRate: demoRate(args),
        corsOrigins: stringsOption(args, 'cors'),
        maxBodyBytes: numberOption(args, 'max-body'),
      });
    } catch (error) {
      const failure = listenFailure(error, host, port);
      if (failure === undefined) throw error;
      console.error(`chainlens: ${failure}`);
      return ExitCode.loadFailed;
    }
    const admin = await serveAdmin(tokens, paths.admin);
    console.log(`chainlens: serving ${server.url} (POST / and WebSocket; admin channel ${admin.path})`);
    if (!tokens.hasActive) {
      const { token } = await tokens.issue({ label: 'first token' });
      console.log(`chainlens: issued a first token; it is shown only now (${paths.tokens} keeps its hash): ${token}`);
    }
    const rpc = stringOption(args, 'rpc');
    const encoding = choiceOption(args, 'rpc-encoding', ['base64', 'json'] as const);
    const fromText = stringOption(args, 'rpc-from');
    if (fromText !== undefined && !/^\d{1,20}$/.test(fromText)) throw new UsageError(`--rpc-from must be a slot number, got '${fromText}'`);
    const startSlot = fromText === undefined ? undefined : BigInt(fromText);
    let follower: Follower | undefined;
    // the dump's blocks come first: live blocks are newer, and blocks commit in slot order
    const loading = loadInBackground(engine, stringsOption(args, 'data'), stopping.signal, stringOption(args, 'rejections')).then(() => {
      if (rpc !== undefined && !stopping.signal.aborted) follower = follow(engine, { url: rpc, encoding, startSlot, cursorFile: paths.cursor });
    });
    const signal = await shutdownSignal();
    console.error(`chainlens: ${signal}: shutting down (finishing the requests and the block under way)`);
    stopping.abort(new Error('the server is shutting down'));
    await loading;
    await follower?.stop().catch(() => undefined);
    await server.close();
    await admin.close();
    return ExitCode.answered;
  } finally {
    await engine.close();
  }
}

/** Follows a Solana JSON-RPC endpoint from the slot after the cursor (else `startSlot`, else the tip); progress and problems on stderr. */
function follow(engine: Engine, options: FollowOptions): Follower {
  const { url } = options;
  const bar = progress('following', 'blocks');
  const follower = followSolanaRpc(engine, {
    ...options,
    onEvent(event) {
      if (event.type === 'committed') {
        const { tipSlot, behind, committed } = follower.status();
        bar.update(committed, undefined, `slot ${event.slot}${tipSlot ? ` (tip ${tipSlot}, ${behind} behind)` : ''}`);
      } else if (event.type === 'rejected') console.error(`chainlens: slot ${event.slot} rejected: ${event.reason}`);
      else if (event.type === 'retry') console.error(`chainlens: ${event.method}: ${event.reason}; retry ${event.attempt} in ${event.delayMs} ms`);
    },
  });
  follower.done.then(
    (report) => bar.done(`followed ${url}: ${report.committed} blocks committed, ${report.skipped} skipped slots, ${report.rejected} rejected; newest ${report.newestCommittedSlot ?? 'none'}`),
    (error: Error) => {
      bar.done();
      console.error(`chainlens: following stopped (the server keeps answering what it has): ${error.message}`);
    },
  );
  return follower;
}

/** Loads `paths` while the server answers (what is committed so far); problems go to stderr, the server stays up. */
async function loadInBackground(engine: Engine, paths: string[], signal: AbortSignal, rejections?: string): Promise<void> {
  if (paths.length === 0) return;
  try {
    await loadWithProgress(engine, paths, { signal }, rejections);
  } catch (error) {
    console.error(signal.aborted ? `chainlens: loading stopped: ${signal.reason?.message}` : `chainlens: loading failed: ${(error as Error).message}`);
  }
}

const describe = (t: TokenInfo) =>
  `${t.id}  ${t.demo ? 'demo ' : 'full '} ${t.created}${t.revoked ? `  revoked ${t.revoked}` : ''}${t.label ? `  ${t.label}` : ''}`;

/**
 * `chainlens token issue|revoke ID|list`: through the admin channel of a running server; with no
 * server running, on the token file itself (the next server start reads it).
 */
export async function tokenCommand(args: ParsedArgs): Promise<number> {
  const [action, id] = args.positionals;
  if (action !== 'issue' && action !== 'revoke' && action !== 'list') throw new UsageError(`token needs issue, revoke ID or list, got ${action ?? 'nothing'}`);
  if (action === 'revoke' && !id) throw new UsageError('token revoke needs the ID of the token (see token list)');
  if (action !== 'revoke' && id !== undefined) throw new UsageError(`unexpected argument: ${id}`);
  const paths = statePaths(args);
  const label = stringOption(args, 'label');
  const demo = args.values.demo === true;
  let offline: TokenStore | undefined;
  const run = async <T>(online: () => Promise<T>, local: (store: TokenStore) => Promise<T> | T): Promise<T> => {
    try {
      return await online();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw error;
      offline = await TokenStore.open(paths.tokens);
      return local(offline);
    }
  };
  try {
    if (action === 'issue') {
      const { token, info } = await run(() => adminCall(paths.admin, 'admin::token::issue', { label, demo }), (s) => s.issue({ label, demo }));
      console.log(token);
      console.error(`issued ${describe(info)} (shown only now; ${offline ? `written to ${paths.tokens}` : 'the server keeps its hash'})`);
    } else if (action === 'revoke') {
      const info = await run(() => adminCall(paths.admin, 'admin::token::revoke', { id: id! }), (s) => s.revoke(id!));
      console.log(`revoked ${describe(info)}`);
    } else {
      const list = await run(() => adminCall(paths.admin, 'admin::token::list'), (s) => s.list());
      for (const info of list) console.log(describe(info));
      if (list.length === 0) console.error('no tokens');
    }
  } catch (error) {
    if (error instanceof AdminError || (error instanceof Error && /^no token with id/.test(error.message))) {
      console.error(`chainlens: ${error.message}`);
      return ExitCode.loadFailed;
    }
    throw error;
  }
  return ExitCode.answered;
}
