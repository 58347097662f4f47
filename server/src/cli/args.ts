/** A small, strict argument parser: unknown flags and missing values are usage errors, an unknown flag with the nearest one. */
import { closest, own } from '../core/index';

export class UsageError extends Error {}

export interface FlagSpec {
  /** Takes a value (`--env NAME`). */
  value?: boolean;
  /** Allowed values. */
  choices?: string[];
  /** May be given several times (`--prompt a=1 --prompt b=2`); every value is kept in `lists`. */
  repeat?: boolean;
  /** Its one line in `--help`. */
  help?: string;
  /** The name of its value in `--help` (`NAME`, `MS`); the choices when it has them. */
  arg?: string;
}

/** `unknown option --formt; did you mean --format?` */
function unknownOption(written: string, spec: Record<string, FlagSpec>): UsageError {
  const near = closest(written.replace(/^-+/, ''), Object.keys(spec));
  return new UsageError(`unknown option ${written}${near ? `; did you mean --${near}?` : ''}`);
}

export interface ParsedArgs {
  flags: Map<string, string | true>;
  /** Every value of a repeatable flag, in order. */
  lists: Map<string, string[]>;
  positionals: string[];
}

export function parseArgs(argv: string[], spec: Record<string, FlagSpec>): ParsedArgs {
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq === -1 ? undefined : eq);
      const s = own(spec, name);
      if (!s) throw unknownOption(`--${name}`, spec);
      if (s.value) {
        let value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
        if (value === undefined || (eq === -1 && value.startsWith('--')))
          throw new UsageError(`--${name} needs a value`);
        value = String(value);
        if (s.choices && !s.choices.includes(value)) {
          throw new UsageError(`--${name} must be one of ${s.choices.join(', ')}, not '${value}'`);
        }
        // A flag that takes one value, given twice, is a mistake to name, not a choice to make silently.
        if (!s.repeat && flags.has(name)) throw new UsageError(`--${name} is given more than once; it takes one value`);
        if (s.repeat) lists.set(name, [...(lists.get(name) ?? []), value]);
        flags.set(name, value);
      } else {
        if (eq !== -1) throw new UsageError(`--${name} takes no value`);
        flags.set(name, true);
      }
      continue;
    }
    if (arg === '-h' && own(spec, 'help')) {
      flags.set('help', true);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') throw unknownOption(arg, spec);
    positionals.push(arg);
  }
  return { flags, lists, positionals };
}

export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}
