/**
 * A command's argv, parsed by node:util parseArgs in strict mode. Its mistakes (an unknown option,
 * a missing value) become UsageErrors that name the option and the closest valid one.
 */
import { parseArgs } from 'node:util';
import { closest } from '../rpc/suggest.js';

/** One option as parseArgs takes it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
}

/** Parsed options (by long name) and positionals. */
export interface ParsedArgs {
  values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  positionals: string[];
}

/** A command-line mistake: printed with the command's usage, exit status 2. */
export class UsageError extends Error {}

/** Parses `argv` against `options` (strict: every option must be known and get the value its type needs). */
export function parseCommandLine(argv: readonly string[], options: Readonly<Record<string, OptionSpec>>): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (error) {
    if (!(error instanceof Error) || !String((error as { code?: string }).code).startsWith('ERR_PARSE_ARGS')) throw error;
    throw new UsageError(explain(argv, options) ?? error.message.split('\n')[0]);
  }
}

/** The offending option, found again without strictness, so that the message can name it. */
function explain(argv: readonly string[], options: Readonly<Record<string, OptionSpec>>): string | undefined {
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (!spec) {
      const suggestion = closest(token.name, Object.keys(options));
      return `unknown option ${token.rawName}${suggestion ? `; did you mean --${suggestion}?` : ''}`;
    }
    if (spec.type === 'boolean' && token.value !== undefined) return `option --${token.name} takes no value`;
    if (spec.type === 'string' && token.value === undefined) return `option --${token.name} needs a value`;
    if (spec.type === 'string' && !token.inlineValue && token.value?.startsWith('-')) {
      return `option --${token.name} needs a value (write --${token.name}=${token.value} for a value starting with '-')`;
    }
  }
  return undefined;
}

/** The last value of a string option, or undefined. */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return Array.isArray(value) ? value.at(-1) : typeof value === 'string' ? value : undefined;
}

/** Every value of a repeatable string option (empty when absent). */
export function stringsOption(args: ParsedArgs, name: string): string[] {
  const value = args.values[name];
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/** A positive number option, or `fallback` when absent; a usage mistake when not a positive number. */
export function numberOption(args: ParsedArgs, name: string, fallback: number): number;
export function numberOption(args: ParsedArgs, name: string, fallback?: number): number | undefined;
export function numberOption(args: ParsedArgs, name: string, fallback?: number): number | undefined {
  const text = stringOption(args, name);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new UsageError(`--${name} must be a positive number, got '${text}'`);
  return value;
}

/** A positive integer option, or undefined when absent. */
export function integerOption(args: ParsedArgs, name: string): number | undefined {
  const value = numberOption(args, name);
  if (value !== undefined && !Number.isSafeInteger(value)) throw new UsageError(`--${name} must be a positive integer, got '${stringOption(args, name)}'`);
  return value;
}

/** A string option restricted to `values`, or undefined when absent. */
export function choiceOption<T extends string>(args: ParsedArgs, name: string, values: readonly T[]): T | undefined {
  const text = stringOption(args, name);
  if (text === undefined || values.includes(text as T)) return text as T | undefined;
  const suggestion = closest(text, values);
  throw new UsageError(`--${name} must be one of ${values.join(', ')}, got '${text}'${suggestion ? `; did you mean ${suggestion}?` : ''}`);
}

/** `--port N`: 0 to 65535 (0: any free port). */
export function portOption(args: ParsedArgs): number | undefined {
  const text = stringOption(args, 'port');
  if (text === undefined) return undefined;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new UsageError(`--port must be a port number (0-65535), got '${text}'`);
  return Number(text);
}
