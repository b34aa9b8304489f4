/**
 * `npm run local`: starts the local stack and prints the base URL and the demo API key.
 * Options: --port N (or LAKELINE_PORT, default 8080), --host H (LAKELINE_HOST, default 127.0.0.1),
 * --home DIR (LAKELINE_HOME, default ./.lakeline). Ctrl-C stops it cleanly; data stays in the home.
 */
import { parseArgs } from 'node:util';
import { resolveHome } from './home.ts';
import { PortInUseError, startLocalStack } from './stack.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, home: { type: 'string' } } });
const port = Number(values.port ?? process.env.LAKELINE_PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`lakeline: invalid port ${values.port ?? process.env.LAKELINE_PORT}`);
  process.exit(2);
}
const home = resolveHome(values.home);

try {
  const stack = await startLocalStack({
    home,
    port,
    host: values.host ?? process.env.LAKELINE_HOST ?? '127.0.0.1',
    // The stack cannot serve without its store: exit loudly, so whatever supervises us sees it.
    onFatal: (reason) => {
      console.error(`lakeline: stopping: ${reason}`);
      process.exit(1);
    },
  });
  console.log(`lakeline local stack is up
  console:  ${stack.baseUrl}/
  base URL: ${stack.baseUrl}
  API key:  ${stack.apiKey}
  org id:   ${stack.orgId}
  state:    ${home} (connection details in ${home}/local.json)
Try: curl -H "Authorization: Bearer ${stack.apiKey}" "${stack.baseUrl}/api/v1/events?start=0&end=4102444800"`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('lakeline: stopping…');
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (err) {
  console.error(`lakeline: ${err instanceof PortInUseError ? err.message : (err as Error).message}`);
  process.exit(1);
}
