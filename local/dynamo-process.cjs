// Child process that serves the local DynamoDB API (dynalite, LevelDB under LAKELINE_HOME).
// It runs in its own process so the store gets its own core instead of sharing the gateway's
// event loop. It prints one JSON line {"port": N, "repair": {…}} when ready (what the start-up
// repair of store-repair.cjs did), and closes the store cleanly on SIGINT/SIGTERM or when its
// parent goes away (stdin closes), so no write is lost on Ctrl-C.
'use strict';
const { existsSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');
// dynalite's own LevelDB and checksum packages, resolved from dynalite so the versions always match.
const fromDynalite = (name) => require(require.resolve(name, { paths: [path.dirname(require.resolve('dynalite'))] }));
const { Level } = fromDynalite('level');
const { cacheExpressionParses, cacheTableDescriptions, nativeResponseChecksum } = require('./dynalite-tuning.cjs');
const { closeAbandonedIterators } = require('./dynalite-iterators.cjs');
const { removeStrayIndexEntries } = require('./store-repair.cjs');

// Before dynalite loads: three costs real DynamoDB does not have (see dynalite-tuning.cjs).
// LAKELINE_STORE_TUNING=off serves dynalite as it ships (bench/local-store.ts compares the two).
if (process.env.LAKELINE_STORE_TUNING !== 'off') {
  cacheTableDescriptions(Level);
  nativeResponseChecksum(fromDynalite('buffer-crc32'));
  // LAKELINE_STORE_PARSE_CACHE=off keeps the other two (bench/lineage-ingest.ts before and after).
  if (process.env.LAKELINE_STORE_PARSE_CACHE !== 'off') {
    cacheExpressionParses(['conditionParser', 'projectionParser', 'updateParser'].map((name) => require(path.join(path.dirname(require.resolve('dynalite')), 'db', name))));
  }
}
// Every Query and Scan of dynalite leaves its LevelDB iterator open, and the store's memory grows
// without bound under load (see dynalite-iterators.cjs); LAKELINE_STORE_ITERATOR_FIX=off keeps that
// (bench/local-store.ts measures both).
closeAbandonedIterators(Level, { close: process.env.LAKELINE_STORE_ITERATOR_FIX !== 'off' });
const dynalite = require('dynalite');

const [storePath, portArg] = process.argv.slice(2);
let server;

/**
 * Written once the store is closed cleanly, removed when it is opened: missing at start, the last
 * run of the store may have been killed in the middle of a write.
 */
const cleanMarker = `${storePath}.closed-cleanly`;

// dynalite opens its LevelDB lazily and, when another process holds the store's lock, crashes on
// the first request ("Database is not open") instead of failing at start. Opening the store once
// here first turns that into a clear, early error the parent reports. While it is open and nothing
// else writes, and unless the last run closed it cleanly, index entries a killed store left
// without their item are removed (store-repair.cjs).
let repair = { ran: false, examined: 0, removed: 0, byIndex: {}, ms: 0 };
const openAndRepairStore = async () => {
  const probe = new Level(storePath, { valueEncoding: 'json' });
  const started = Date.now();
  try {
    await probe.open();
  } catch (err) {
    const locked = err.cause && err.cause.code === 'LEVEL_LOCKED';
    process.stderr.write(locked ? `dynalite: the store is locked by another process (${err.cause.message})\n` : `dynalite: cannot open the store: ${err.message}\n`);
    process.exit(3);
  }
  try {
    if (existsSync(cleanMarker)) rmSync(cleanMarker);
    else repair = { ...(await removeStrayIndexEntries(probe, require(path.join(path.dirname(require.resolve('dynalite')), 'db')))), ran: true };
  } catch (err) {
    // Serving a store with stray entries beats not serving it: the parent logs this loudly.
    repair = { ...repair, ran: true, error: err.message };
  } finally {
    repair.ms = Date.now() - started;
    await probe.close();
  }
};

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  if (!server) process.exit(0);
  // dynalite's close waits for the requests in flight and their writes, then closes LevelDB.
  server.close((err) => {
    if (!err) writeFileSync(cleanMarker, '');
    process.exit(0);
  });
  setTimeout(() => process.exit(0), 10_000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
process.stdin.on('end', shutdown);
process.stdin.resume();

openAndRepairStore().then(() => {
  server = dynalite({ path: storePath, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  server.on('error', (err) => {
    process.stderr.write(`dynalite: ${err.message}\n`);
    process.exit(2);
  });
  server.listen(Number(portArg || 0), '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: server.address().port, repair })}\n`);
  });
});
