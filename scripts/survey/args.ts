/**
 * The `survey` commands' arguments, read by Node's `parseArgs` (`node:util`, strict): positionals, flags and valued
 * options (`--name value`, `--name=value`, `-o value`; `--` ends options). Only what `parseArgs` does not check is
 * checked here: allowed values, an option given twice, and the messages a curator reads.
 */
import { parseArgs as parseNodeArgs } from 'node:util';

/** Thrown for a command line that cannot be understood (exit code 2). */
export class UsageError extends Error {}

/** What one command accepts: option names (with aliases) that take a value, and flags that do not. */
export interface ArgSpec {
  /** Long name → allowed values (empty: any value). */
  values: Record<string, readonly string[]>;
  /** Long names of flags. */
  flags: readonly string[];
  /** Short alias → long name. */
  aliases?: Record<string, string>;
}

/** A parsed command line. */
export interface ParsedArgs {
  positionals: string[];
  values: Record<string, string>;
  flags: Set<string>;
}

type NodeOptions = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** The options `parseArgs` is given: every valued option may repeat, so that a second one is our error, not a silent overwrite. */
function nodeOptions(spec: ArgSpec): NodeOptions {
  const shortOf = (long: string) => Object.entries(spec.aliases ?? {}).find(([, name]) => name === long)?.[0];
  const options: NodeOptions = {};
  for (const name of Object.keys(spec.values)) options[name] = { type: 'string', multiple: true, short: shortOf(name) };
  for (const name of spec.flags) options[name] = { type: 'boolean', multiple: true, short: shortOf(name) };
  for (const option of Object.values(options)) if (option.short === undefined) delete option.short;
  return options;
}

/** The message for one of `parseArgs`' errors, as the curator should read it (the option as it was typed). */
function usageMessage(error: Error & { code?: unknown }, argv: readonly string[], spec: ArgSpec): string {
  // Node names the option as typed ('--colour', '-z') or spelled out in full ('-o, --out <value>').
  const typed = /'(-[^' ,]*)/.exec(error.message)?.[1] ?? '';
  const long = /--([^' ,]+) <value>/.exec(error.message)?.[1] ?? (typed.startsWith('--') ? typed.slice(2) : (spec.aliases?.[typed.slice(1)] ?? typed.slice(1)));
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${typed}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (spec.flags.includes(long)) return `--${long} takes no value`;
      // A value that starts with a dash reads as another option; Node asks for it to be attached.
      return error.message.includes('ambiguous') ? `--${long} needs a value (write --${long}=VALUE for one that starts with -)` : `--${long} needs a value`;
    default:
      return `${error.message} (${argv.join(' ')})`;
  }
}

/** Parses `--name value`, `--name=value`, `-o value`, flags and positionals (`--` ends options). */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  let parsed: ReturnType<typeof parseNodeArgs>;
  try {
    parsed = parseNodeArgs({ args: [...argv], options: nodeOptions(spec), allowPositionals: true, strict: true });
  } catch (error) {
    if (error instanceof TypeError && 'code' in error) throw new UsageError(usageMessage(error, argv, spec));
    throw error;
  }
  const out: ParsedArgs = { positionals: parsed.positionals, values: {}, flags: new Set() };
  for (const [name, given] of Object.entries(parsed.values) as Array<[string, Array<string | boolean>]>) {
    if (spec.flags.includes(name)) {
      out.flags.add(name);
      continue;
    }
    if (given.length > 1) throw new UsageError(`--${name} given twice`);
    const value = String(given[0]);
    const allowed = spec.values[name]!;
    if (allowed.length > 0 && !allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
    out.values[name] = value;
  }
  return out;
}
