#!/usr/bin/env node
// `lakeline` (package.json "bin"): runs cli/main.ts under tsx, as `npm run lakeline` does, from any
// working directory (tsx resolves from this package, not from the caller's directory). tsx's
// loader is registered in this process instead of spawning `node --import tsx`, so there is one
// process: output, signals and the exit status are the CLI's own, and start-up is ~0.2 s faster.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
