/**
 * `lakeline`: the operator CLI (orgs, API keys, sessions) for either profile. Run it as
 * `npx lakeline …` (bin/lakeline.mjs) or `npm run lakeline -- …`; `lakeline --help` lists the
 * commands. Exit status: 0 success, 1 failure, 2 usage error.
 */

// The CLI runs on this machine's Node 20; Lambda runs Node 22, so the SDK's notice is noise here.
// Set before the SDK loads (hence the dynamic import below: static imports are hoisted).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export {};

const { runCli } = await import('./run.ts');
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
