/**
 * @module args
 * Turns argv into a command to run or a help topic, strictly: unknown options, missing values,
 * missing required options and stray arguments are usage errors (exit status 2), reported before
 * anything touches a store.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { COMMANDS, GLOBAL_OPTIONS, GLOBAL_VALUE_OPTIONS, GROUPS, findCommand, type CommandSpec, type OptionSpec } from './spec.ts';

/** Bad command line: the message says what is wrong; `topic` names the help that would help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly topic: HelpTopic = {},
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Which help to show: general, a group's, or one command's. */
export interface HelpTopic {
  readonly group?: string;
  readonly command?: CommandSpec;
}

/** Options shared by every command, validated. */
export interface GlobalArgs {
  readonly profile: 'local' | 'aws';
  readonly home?: string;
  readonly stack?: string;
  readonly region?: string;
  readonly json: boolean;
}

/** A command ready to run. */
export interface CommandArgs {
  readonly kind: 'command';
  readonly command: CommandSpec;
  readonly globals: GlobalArgs;
  /** The command's own options, by long name. */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  /** The command's positionals, by name. */
  readonly positionals: Readonly<Record<string, string>>;
}

/** What argv asks for. */
export type ParsedArgs = CommandArgs | { readonly kind: 'help'; readonly topic: HelpTopic };

const toParseArgsOptions = (specs: Readonly<Record<string, OptionSpec>>): NonNullable<ParseArgsConfig['options']> =>
  Object.fromEntries(Object.entries(specs).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));

/**
 * The leading words of argv (group, action), found before the command's own options are known.
 * Values of global options are skipped, so `--profile aws orgs list` works; command options go
 * after the command words.
 */
const commandWords = (argv: readonly string[]): string[] => {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) words.push(arg);
  }
  return words;
};

const wantsHelp = (argv: readonly string[]): boolean => argv.includes('--help') || argv.includes('-h');

/** Parses argv (without the node and script paths). Throws {@link UsageError}. */
export const parseCommandLine = (argv: readonly string[]): ParsedArgs => {
  const [group, action] = commandWords(argv);
  if (group === undefined) {
    if (wantsHelp(argv)) return { kind: 'help', topic: {} };
    throw new UsageError(argv.length === 0 ? 'a command is required' : `a command is required (got only options: ${argv.join(' ')})`);
  }
  if (!(GROUPS as readonly string[]).includes(group)) throw new UsageError(`unknown command "${group}"; expected one of ${GROUPS.join(', ')}`);
  if (action === undefined) {
    if (wantsHelp(argv)) return { kind: 'help', topic: { group } };
    throw new UsageError(`"${group}" needs an action: ${actionsOf(group)}`, { group });
  }
  const command = findCommand(group, action);
  if (!command) throw new UsageError(`unknown command "${group} ${action}"; "${group}" takes ${actionsOf(group)}`, { group });
  if (wantsHelp(argv)) return { kind: 'help', topic: { command } };

  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: toParseArgsOptions({ ...GLOBAL_OPTIONS, ...command.options }),
      allowPositionals: true,
      strict: true,
    }) as typeof parsed;
  } catch (err) {
    // node:util's messages are precise ("Unknown option '--nme'"); keep them, drop its hints about `--`.
    throw new UsageError((err as Error).message.split('\n')[0] as string, { command });
  }

  const rest = parsed.positionals.slice(2);
  if (rest.length > command.positionals.length) throw new UsageError(`unexpected argument "${rest[command.positionals.length]}"`, { command });
  const missing = command.positionals[rest.length];
  if (missing) throw new UsageError(`${missing.name} is required`, { command });
  for (const name of command.required ?? []) {
    if (parsed.values[name] === undefined) throw new UsageError(`--${name} is required`, { command });
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' && value.trim() === '') throw new UsageError(`--${name} must not be empty`, { command });
  }

  const globals = globalArgs(parsed.values, command);
  const options = Object.fromEntries(Object.keys(command.options).map((name) => [name, parsed.values[name]]));
  const positionals = Object.fromEntries(command.positionals.map((p, i) => [p.name, rest[i] as string]));
  return { kind: 'command', command, globals, options, positionals };
};

const globalArgs = (values: Record<string, string | boolean | undefined>, command: CommandSpec): GlobalArgs => {
  const profile = (values.profile as string | undefined) ?? 'local';
  if (profile !== 'local' && profile !== 'aws') throw new UsageError(`--profile must be local or aws, not "${profile}"`, { command });
  // Options of the other profile would be silently ignored; refusing them catches a forgotten --profile.
  if (profile === 'local') {
    for (const name of ['stack', 'region']) if (values[name] !== undefined) throw new UsageError(`--${name} applies to --profile aws only`, { command });
  } else if (values.home !== undefined) {
    throw new UsageError('--home applies to --profile local only', { command });
  }
  return {
    profile,
    json: values.json === true,
    ...(typeof values.home === 'string' ? { home: values.home } : {}),
    ...(typeof values.stack === 'string' ? { stack: values.stack } : {}),
    ...(typeof values.region === 'string' ? { region: values.region } : {}),
  };
};

const actionsOf = (group: string): string =>
  COMMANDS.filter((c) => c.group === group)
    .map((c) => c.action)
    .join(', ');
