/** A small argument parser for the `survey` commands: positionals, flags and valued options. */

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

/** Parses `--name value`, `--name=value`, `-o value`, flags and positionals (`--` ends options). */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], values: {}, flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    let name = eq === -1 ? arg : arg.slice(0, eq);
    let inline = eq === -1 ? undefined : arg.slice(eq + 1);
    if (name.startsWith('--')) name = name.slice(2);
    else {
      const short = name.slice(1);
      const long = spec.aliases?.[short];
      if (!long) throw new UsageError(`unknown option ${arg}`);
      name = long;
    }
    if (spec.flags.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
      continue;
    }
    const allowed = spec.values[name];
    if (!allowed) throw new UsageError(`unknown option --${name}`);
    if (inline === undefined) {
      inline = argv[i + 1];
      if (inline === undefined) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (allowed.length > 0 && !allowed.includes(inline)) {
      throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(inline)})`);
    }
    if (name in out.values) throw new UsageError(`--${name} given twice`);
    out.values[name] = inline;
  }
  return out;
}
