/**
 * `lakeline`: the operator CLI (orgs, API keys, sessions) for either profile. Run it as
 * `npx lakeline …` (bin/lakeline.mjs) or `npm run lakeline -- …`; `lakeline --help` lists the
 * commands. Exit status: 0 success, 1 failure, 2 usage error.
 */
import { runCli } from './run.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
