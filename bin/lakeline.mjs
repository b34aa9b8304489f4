#!/usr/bin/env node
// `lakeline` (package.json "bin"): runs cli/main.ts under tsx, as `npm run lakeline` does, from any
// working directory (tsx resolves from this package, not from the caller's directory). tsx's
// loader is registered in this process instead of spawning `node --import tsx`, so there is one
// process: output, signals and the exit status are the CLI's own, and start-up is ~0.2 s faster.
// `lakeline mcp` is the stdio MCP server (cli/mcp.ts): its stdout is the protocol's alone, so it
// is dispatched here, before the operator CLI (which prints) loads.
import { register } from 'tsx/esm/api';

register();
if (process.argv[2] === 'mcp') {
  const { runMcpStdio } = await import('../cli/mcp.ts');
  process.exitCode = await runMcpStdio();
} else {
  await import('../cli/main.ts');
}
