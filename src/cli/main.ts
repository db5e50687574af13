/**
 * The `chainlens` command: demo, generate, query, rpc, replay, serve, token, ui. Options and exit statuses: usage.ts.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PROFILES, type MarketProfile } from '../generate/profiles.js';
import { createEngine } from '../index.node.js';
import { METHOD_TABLE } from '../methods/index.js';
import { validateCall, type ResponseEntry } from '../rpc/dispatch.js';
import { closest } from '../rpc/suggest.js';
import { NO_PUSH_METHODS } from '../stream/connection.js';
import {
  choiceOption, integerOption, numberOption, parseCommandLine, stringOption, stringsOption, UsageError, type ParsedArgs,
} from './args.js';
import { demoData, FORMATS, generateDump } from './dump.js';
import { reportProblems } from './load-report.js';
import { loadEngine, LoadFailed, summary } from './load.js';
import { serveCommand, tokenCommand } from './serve.js';
import { tour } from './tour.js';
import { uiCommand } from './ui.js';
import { COMMANDS, commandUsage, ExitCode, usage, usageHint, type CommandName } from './usage.js';

const DEMO_MINUTES = 5;
const DEMO_SEED = '1';

/** Runs the command line; resolves with the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  const [first, ...rest] = argv;
  let command: CommandName | undefined;
  try {
    if (first === undefined) {
      console.error(usage());
      return ExitCode.usage;
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      console.log(isCommand(rest[0]) ? commandUsage(rest[0]) : usage());
      return ExitCode.answered;
    }
    if (first === '--version') {
      console.log(version());
      return ExitCode.answered;
    }
    if (!isCommand(first)) {
      const [kind, candidates] = first.startsWith('-') ? ['option', ['--help', '--version']] : ['command', Object.keys(COMMANDS)];
      throw new UsageError(`unknown ${kind} ${first}; did you mean ${closest(first, candidates)}?`);
    }
    command = first;
    const args = parseCommandLine(rest, COMMANDS[command].options);
    if (args.values.help) {
      console.log(commandUsage(command));
      return ExitCode.answered;
    }
    const extra = args.positionals.slice(COMMANDS[command].maxPositionals);
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    return await RUN[command](args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`chainlens: ${error.message}\n${usageHint(command)}`);
      return ExitCode.usage;
    }
    if (error instanceof LoadFailed) {
      console.error(`chainlens: loading failed: ${error.message}`);
      return ExitCode.loadFailed;
    }
    throw error;
  }
}

const isCommand = (name: string | undefined): name is CommandName => name !== undefined && Object.hasOwn(COMMANDS, name);

/** The package's version (dist/src/cli/main.js, and its bundle dist/src/bundle/cli.js, sit three folders below package.json). */
const version = (): string => JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;

const RUN: Record<CommandName, (args: ParsedArgs) => Promise<number>> = { demo, generate, query, rpc, replay, serve: serveCommand, token: tokenCommand, ui: uiCommand };

async function demo(args: ParsedArgs): Promise<number> {
  const dir = await demoData(numberOption(args, 'minutes', DEMO_MINUTES), stringOption(args, 'seed') ?? DEMO_SEED);
  const { engine } = await loadEngine([dir]);
  try {
    await tour(engine, (line) => console.log(line));
  } finally {
    await engine.close();
  }
  return ExitCode.answered;
}

async function generate(args: ParsedArgs): Promise<number> {
  const out = stringOption(args, 'out');
  if (!out) throw new UsageError('generate needs --out DIR');
  const format = choiceOption(args, 'format', FORMATS) ?? 'parquet';
  const options = {
    minutes: numberOption(args, 'minutes', 60),
    seed: stringOption(args, 'seed') ?? DEMO_SEED,
    txPerBlock: numberOption(args, 'tx-per-block'),
    profile: choiceOption(args, 'profile', Object.keys(PROFILES) as MarketProfile[]),
    pairs: integerOption(args, 'pairs'),
    tokens: integerOption(args, 'tokens'),
    swapsPerSecond: numberOption(args, 'swaps-per-second'),
  };
  let counts;
  try {
    counts = await generateDump(out, format, options);
  } catch (error) {
    // the generator names the option at fault (a size out of its range)
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
  console.log(`wrote ${out}: ${Object.entries(counts).map(([t, n]) => `${n} ${t}`).join(', ')} (${format})`);
  return ExitCode.answered;
}

/** The paths of --data, or the demo data (generated on first use). */
async function dataPaths(args: ParsedArgs): Promise<string[]> {
  const paths = stringsOption(args, 'data');
  return paths.length > 0 ? paths : [await demoData(DEMO_MINUTES, DEMO_SEED)];
}

/** METHOD and PARAMS_JSON from the positionals. */
function methodAndParams(command: string, args: ParsedArgs): [string, Record<string, unknown>] {
  const [method, paramsText] = args.positionals;
  if (!method) throw new UsageError(`${command} needs a METHOD`);
  if (paramsText === undefined) return [method, {}];
  try {
    return [method, JSON.parse(paramsText)];
  } catch {
    throw new UsageError(`PARAMS_JSON is not JSON: ${paramsText}`);
  }
}

/** A time option as the engine takes it: Unix seconds (a number) or ISO-8601 text. */
const timeOption = (args: ParsedArgs, name: string): string | number | undefined => {
  const text = stringOption(args, name);
  return text === undefined || !/^\d+(\.\d+)?$/.test(text) ? text : Number(text);
};

/** The exit status of an answer: 3 with --fail-on-error when it held an error entry. */
const answered = (args: ParsedArgs, failed: boolean): number =>
  failed && args.values['fail-on-error'] ? ExitCode.errorEntry : ExitCode.answered;

const hasError = (response: readonly ResponseEntry[]) => response.some((entry) => 'error' in entry);

async function query(args: ParsedArgs): Promise<number> {
  const [method, given] = methodAndParams('query', args);
  const at = timeOption(args, 'at');
  const params = at === undefined ? given : { ...given, at };
  // an unknown method or bad params is answered before any data is read
  const refused = validateCall(method, params, { methods: METHOD_TABLE, extra: NO_PUSH_METHODS });
  if (refused) {
    console.log(JSON.stringify([{ jsonrpc: '2.0', id: 1, error: refused }], null, 2));
    return answered(args, true);
  }
  const { engine } = await loadEngine(await dataPaths(args), stringOption(args, 'rejections'), args.values.strict === true);
  try {
    const response = await engine.request({ jsonrpc: '2.0', id: 1, method, params });
    console.log(JSON.stringify(response, null, 2));
    return answered(args, hasError(response));
  } finally {
    await engine.close();
  }
}

async function rpc(args: ParsedArgs): Promise<number> {
  const { engine } = await loadEngine(await dataPaths(args), stringOption(args, 'rejections'), args.values.strict === true);
  let failed = false;
  try {
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const response = await engine.request(line);
      failed ||= hasError(response);
      process.stdout.write(JSON.stringify(response) + '\n');
    }
  } finally {
    await engine.close();
  }
  return answered(args, failed);
}

async function replay(args: ParsedArgs): Promise<number> {
  const [method, params] = methodAndParams('replay', args);
  const speedText = stringOption(args, 'speed') ?? '1';
  const speed = /^(infinity|inf|max)$/i.test(speedText) ? Infinity : Number(speedText);
  if (!(speed > 0)) throw new UsageError(`--speed must be a positive number or Infinity, got '${speedText}'`);
  const from = timeOption(args, 'from');
  const to = timeOption(args, 'to');
  const retainText = stringOption(args, 'retain');
  const retain = retainText === undefined || /^all$/i.test(retainText) ? retainText?.toLowerCase() : /^\d+$/.test(retainText) ? Number(retainText) : retainText;
  const engine = await createEngine();
  try {
    let failed: string | undefined;
    try {
      // subscribing checks the method and params before any data is read
      await engine.subscribe(method, params, (push) => {
        if (push.error) failed = `the stream ended: ${push.error.message}`;
        for (const point of push.result ?? []) process.stdout.write(JSON.stringify(point) + '\n');
      });
    } catch (error) {
      // an unknown method or bad params: the error entry, as `query` prints it
      console.log(JSON.stringify([{ jsonrpc: '2.0', id: null, error: (error as { rpc?: unknown }).rpc ?? String(error) }]));
      return answered(args, true);
    }
    const paths = await dataPaths(args);
    let report;
    try {
      report = await engine.replay(paths.length === 1 ? paths[0]! : paths, { speed, from, to, retain, strict: args.values.strict === true });
    } catch (error) {
      if (error instanceof RangeError) throw new UsageError(error.message);
      throw new LoadFailed((error as Error).message);
    }
    if (failed) console.error(`chainlens: ${failed}`);
    console.error(summary('replayed', report, report.seconds, `${report.blocksPerSecond.toFixed(0)} blocks/s`));
    await reportProblems(report, stringOption(args, 'rejections'));
    return answered(args, failed !== undefined);
  } finally {
    await engine.close();
  }
}
