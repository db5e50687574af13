/**
 * The commands as data: their options (what parseArgs checks) with a line of help each, their
 * positionals, and the usage texts made from them.
 */
import type { OptionSpec } from './args.js';

/** Exit statuses of the `chainlens` command. */
export const ExitCode = {
  /** The request was answered (an error entry is an answer, unless --fail-on-error). */
  answered: 0,
  /**
   * Loading failed (a missing path, nothing valid in the data), a token command was refused (no such
   * id), or ui could not serve (no built app, its port in use).
   */
  loadFailed: 1,
  /** A command-line mistake. */
  usage: 2,
  /** --fail-on-error: a response held an error entry (or a stream ended with an error). */
  errorEntry: 3,
} as const;

/** An option with its help: `value` names its argument. */
export interface OptionHelp extends OptionSpec {
  value?: string;
  doc: string;
}

/** One command: its synopsis after the options, the most positionals it takes, and its options. */
export interface CommandHelp {
  summary: string;
  positionals: string;
  maxPositionals: number;
  options: Readonly<Record<string, OptionHelp>>;
}

const help: OptionHelp = { type: 'boolean', short: 'h', doc: 'print this help and exit' };
const data: OptionHelp = {
  type: 'string', multiple: true, value: 'PATH', doc: 'a dump folder or file; repeat for more (default: the demo data)',
};
const rejections: OptionHelp = {
  type: 'string', value: 'FILE', doc: 'write every rejected row to FILE as NDJSON {source,row,field,message}',
};
const strict: OptionHelp = {
  type: 'boolean', doc: 'a file of a --data folder that cannot be loaded is an error (default: skipped with a warning)',
};
const failOnError: OptionHelp = { type: 'boolean', doc: `exit ${ExitCode.errorEntry} when a response holds an error entry` };
const minutes = (fallback: number): OptionHelp => ({ type: 'string', value: 'N', doc: `minutes of market (default ${fallback})` });
const seed: OptionHelp = { type: 'string', value: 'S', doc: 'seed of the generator (default 1)' };
const time = (doc: string): OptionHelp => ({ type: 'string', value: 'T', doc: `${doc} (Unix seconds or ISO-8601)` });

const stateOption: OptionHelp = { type: 'string', value: 'DIR', doc: "the server's folder: tokens.json (hashes only), admin.sock, rpc-cursor.json (default ./.chainlens)" };
const adminOption: OptionHelp = { type: 'string', value: 'SOCKET', doc: 'the admin channel (default DIR/admin.sock of --state)' };

/** Every command, by name. */
export const COMMANDS = {
  demo: {
    summary: 'generate (once) a demo market, load it, call every method',
    positionals: '',
    maxPositionals: 0,
    options: { minutes: minutes(5), seed, help },
  },
  generate: {
    summary: 'write a seeded synthetic dump, one file per table',
    positionals: '',
    maxPositionals: 0,
    options: {
      out: { type: 'string', value: 'DIR', doc: 'the folder to write (required)' },
      minutes: minutes(60),
      seed,
      format: { type: 'string', value: 'F', doc: 'parquet, ndjson, csv or arrow (default parquet)' },
      'tx-per-block': { type: 'string', value: 'N', doc: 'mean transactions per block, votes included' },
      profile: { type: 'string', value: 'P', doc: 'market size: default or mainnet' },
      pairs: { type: 'string', value: 'N', doc: 'number of trading pairs' },
      tokens: { type: 'string', value: 'N', doc: 'number of tokens' },
      'swaps-per-second': { type: 'string', value: 'N', doc: 'mean swaps per second' },
      help,
    },
  },
  query: {
    summary: 'answer one call and print the JSON-RPC response array',
    positionals: 'METHOD [PARAMS_JSON]',
    maxPositionals: 2,
    options: { data, strict, at: time('answer as of this time'), 'fail-on-error': failOnError, rejections, help },
  },
  rpc: {
    summary: 'answer each JSON-RPC body on stdin (one per line) with a response array line',
    positionals: '',
    maxPositionals: 0,
    options: { data, strict, 'fail-on-error': failOnError, rejections, help },
  },
  replay: {
    summary: 'replay on a simulated clock; print each data point the METHOD stream pushes (NDJSON)',
    positionals: 'METHOD [PARAMS_JSON]',
    maxPositionals: 2,
    options: {
      data,
      strict,
      speed: { type: 'string', value: 'N', doc: 'clock speed: 1 is real time (the default), Infinity as fast as possible' },
      from: time('replay blocks from this time'),
      to: time('replay blocks before this time'),
      retain: { type: 'string', value: 'D', doc: 'history kept (transactions, trades, market blocks): a duration (default 15m, at least 5m) or all' },
      'fail-on-error': { type: 'boolean', doc: `exit ${ExitCode.errorEntry} when the stream is refused or ends with an error` },
      rejections,
      help,
    },
  },
  serve: {
    summary: 'serve POST / and WebSocket (bearer tokens) on loopback; load --data and follow --rpc meanwhile',
    positionals: '',
    maxPositionals: 0,
    options: {
      data: { type: 'string', multiple: true, value: 'PATH', doc: 'a dump folder or file loaded at start, answered while it loads; repeat for more' },
      rpc: { type: 'string', value: 'URL', doc: 'follow a Solana JSON-RPC endpoint: ingest each new block' },
      'rpc-encoding': { type: 'string', value: 'E', doc: 'getBlock encoding for --rpc: base64 (default) or json' },
      'rpc-from': { type: 'string', value: 'SLOT', doc: 'first slot to follow when DIR/rpc-cursor.json does not say where to resume (default: the tip)' },
      host: { type: 'string', value: 'HOST', doc: 'address to bind (default 127.0.0.1)' },
      port: { type: 'string', value: 'N', doc: 'port (default 8787; 0: any free port)' },
      state: stateOption,
      admin: adminOption,
      cors: { type: 'string', multiple: true, value: 'ORIGIN', doc: 'an origin whose pages may call (repeat for more; default none)' },
      'demo-rate': { type: 'string', value: 'R[/B]', doc: 'demo tokens: R requests per second, bursts of B (default 10/20)' },
      'max-body': { type: 'string', value: 'BYTES', doc: 'largest request body or WebSocket message (default 1048576)' },
      retain: { type: 'string', value: 'D', doc: 'history kept: a duration (at least 5m); default everything' },
      rejections,
      help,
    },
  },
  token: {
    summary: "issue, revoke or list the server's bearer tokens (through its admin channel)",
    positionals: 'issue|revoke ID|list',
    maxPositionals: 2,
    options: {
      label: { type: 'string', value: 'TEXT', doc: 'issue: a note shown by list' },
      demo: { type: 'boolean', doc: 'issue: a demo token (rate-limited)' },
      state: stateOption,
      admin: adminOption,
      help,
    },
  },
  ui: {
    summary: 'serve the browser app (dist/app; it runs the engine in the page) on loopback and open it in a browser',
    positionals: '',
    maxPositionals: 0,
    options: {
      host: { type: 'string', value: 'HOST', doc: 'address to bind (default 127.0.0.1)' },
      port: { type: 'string', value: 'N', doc: 'port (default 8788; 0: any free port)' },
      dir: { type: 'string', value: 'PATH', doc: "the built app's folder, with its index.html (default: the app in the package, dist/app)" },
      'no-open': { type: 'boolean', doc: 'only print the URL; do not open a browser' },
      help,
    },
  },
} satisfies Record<string, CommandHelp>;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

const EXIT_STATUS = `exit status: ${ExitCode.answered} answered (an error entry is an answer), ${ExitCode.loadFailed} loading failed, ` +
  `${ExitCode.usage} a command-line mistake, ${ExitCode.errorEntry} an error entry with --fail-on-error`;

const synopsis = (name: CommandName) => {
  const { positionals } = COMMANDS[name];
  return `chainlens ${name} [options]${positionals ? ` ${positionals}` : ''}`;
};

/** The usage of one command: synopsis, summary, options, exit statuses. */
export function commandUsage(name: CommandName): string {
  const command: CommandHelp = COMMANDS[name];
  const rows = Object.entries(command.options).map(([option, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : '    '}--${option}${spec.value ? ` ${spec.value}` : ''}`;
    return `  ${flag.padEnd(26)} ${spec.doc}`;
  });
  return [`usage: ${synopsis(name)}`, `  ${command.summary}`, 'options:', ...rows, EXIT_STATUS].join('\n');
}

/** The usage of the whole command: every command with its summary. */
export function usage(): string {
  const rows = (Object.keys(COMMANDS) as CommandName[]).map((name) => {
    const { positionals, summary } = COMMANDS[name];
    return `  ${`${name} ${positionals}`.padEnd(28)} ${summary}`;
  });
  return [
    'usage: chainlens COMMAND [options]',
    ...rows,
    '`chainlens COMMAND --help` lists its options; `chainlens --version` prints the version.',
    'Without --data, query, rpc and replay use the demo data (generated once under $CHAINLENS_HOME, default ~/.cache/chainlens).',
    EXIT_STATUS,
  ].join('\n');
}

/** What a usage mistake prints after its message: the synopsis and where the help is. */
export const usageHint = (name?: CommandName): string =>
  name ? `usage: ${synopsis(name)}\n(\`chainlens ${name} --help\` lists the options)` : '(`chainlens --help` lists the commands)';
