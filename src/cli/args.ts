/** A small argv parser: `--name value`, `--flag`, repeated options, and positionals. */

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string[]>;
}

/** Parses argv; `flags` are options that take no value. */
export function parseArgs(argv: readonly string[], flags: readonly string[] = []): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--') {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    let value = inline;
    if (value === undefined) value = flags.includes(name) ? 'true' : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    options.set(name, [...(options.get(name) ?? []), value]);
  }
  return { positionals, options };
}

/** The last value of an option, or undefined. */
export const option = (args: ParsedArgs, name: string): string | undefined => args.options.get(name)?.at(-1);

/** A command-line mistake: printed with the usage, exit status 2. */
export class UsageError extends Error {}
