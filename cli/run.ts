/**
 * @module run
 * Runs one CLI invocation: parse, check flags, open the profile's stores, act, print, close. It
 * returns the exit status instead of exiting, so it can be tested in-process.
 */
import { DomainError, ValidationError } from '#domain/errors';
import { resolveHome } from '#local/home';
import { ACTIONS } from './actions.ts';
import { parseCommandLine, UsageError, type GlobalArgs, type HelpTopic } from './args.ts';
import { renderHelp } from './help.ts';
import type { Target } from './target.ts';
import { TargetError } from './target-error.ts';

/** Exit statuses. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/** Where output goes. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Opens the stores a profile names. */
export type TargetOpener = (globals: GlobalArgs) => Promise<Target>;

/**
 * The real opener: local home or deployed stack. The AWS SDK and the local store code load only
 * here, so help and usage errors answer without loading them.
 */
export const openTarget: TargetOpener = async (globals) => {
  const { openAwsTarget, openLocalTarget } = await import('./target.ts');
  return globals.profile === 'aws'
    ? openAwsTarget({ ...(globals.stack ? { stack: globals.stack } : {}), ...(globals.region ? { region: globals.region } : {}) })
    : openLocalTarget(resolveHome(globals.home));
};

const helpHint = (topic: HelpTopic): string =>
  topic.command ? `lakeline ${topic.command.group} ${topic.command.action} --help` : topic.group ? `lakeline ${topic.group} --help` : 'lakeline --help';

/** Runs argv; resolves with the exit status. */
export const runCli = async (argv: readonly string[], io: CliIo, open: TargetOpener = openTarget): Promise<number> => {
  const usage = (err: UsageError): number => {
    io.stderr(`lakeline: ${err.message}\nRun \`${helpHint(err.topic)}\` for usage.\n`);
    return EXIT.usage;
  };
  let work: ReturnType<(typeof ACTIONS)[string]>;
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
    if (parsed.kind === 'help') {
      io.stdout(renderHelp(parsed.topic));
      return EXIT.ok;
    }
    const action = ACTIONS[`${parsed.command.group} ${parsed.command.action}`];
    if (!action) throw new Error(`no action for ${parsed.command.group} ${parsed.command.action}`);
    work = action(parsed);
  } catch (err) {
    if (err instanceof UsageError) return usage(err);
    throw err;
  }

  let target: Target;
  try {
    target = await open(parsed.globals);
  } catch (err) {
    io.stderr(`lakeline: ${(err as Error).message}\n`);
    return EXIT.failure;
  }
  try {
    const output = await work(target);
    io.stdout(`${parsed.globals.json ? JSON.stringify(output.json, null, 2) : output.text}\n`);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) return usage(err);
    // The domain's validation messages name the field; from the CLI that field is a flag.
    if (err instanceof ValidationError) return usage(new UsageError(err.message, { command: parsed.command }));
    if (err instanceof DomainError || err instanceof TargetError) {
      io.stderr(`lakeline: ${err.message}\n`);
      return EXIT.failure;
    }
    io.stderr(`lakeline: ${parsed.globals.profile} store request failed: ${(err as Error).name}: ${(err as Error).message}\n`);
    return EXIT.failure;
  } finally {
    await target.close();
  }
};
