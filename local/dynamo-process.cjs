// Child process that serves the local DynamoDB API (dynalite, LevelDB under LAKELINE_HOME).
// It runs in its own process so the store gets its own core instead of sharing the gateway's
// event loop. It prints one JSON line {"port": N} when ready, and closes the store cleanly on
// SIGINT/SIGTERM or when its parent goes away (stdin closes), so no write is lost on Ctrl-C.
'use strict';
const dynalite = require('dynalite');

const [storePath, portArg] = process.argv.slice(2);
const server = dynalite({ path: storePath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();

server.on('error', (err) => {
  process.stderr.write(`dynalite: ${err.message}\n`);
  process.exit(2);
});
server.listen(Number(portArg || 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
