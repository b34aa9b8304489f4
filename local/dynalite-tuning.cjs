// Three costs dynalite pays per item or request that real DynamoDB does not, removed for the local
// store process (docs/adr/0034-local-store-dynalite-tuning.md, docs/adr/0051-ingestion-store-work-and-its-bill.md):
// reading a table's description per item, a checksum of every response computed byte by byte in
// JavaScript, and parsing the same expression text again on every request.
//
// 1. Table descriptions kept in memory instead of read from LevelDB per item.
//
// dynalite reads the description of a table from LevelDB before every item operation, and a
// BatchGetItem does it once per key: two LevelDB reads and two JSON decodes for every item read,
// one of them always the same few kilobytes (the Events table's description lists its seven
// indexes). Real DynamoDB has no such cost, so it only distorted the local profile's figures, and
// its benchmarks, against the service's read paths (bench/local-store.ts measures the difference).
//
// The store process installs this before dynalite opens LevelDB. It wraps the LevelDB class's
// get/put/del/batch: a description is served from a copy of its JSON text (decoded afresh per read,
// as LevelDB would, so no caller shares an object), and any write of a description key drops the
// copy. A read that raced a write does not keep its result (a version per key says so).
'use strict';

/** dynalite's key prefix of table descriptions (its `table` sub-database). */
const TABLE_PREFIX = 'table~';

const isTableKey = (key) => typeof key === 'string' && key.startsWith(TABLE_PREFIX);

/**
 * Patches `Level.prototype` (the `level` package dynalite uses) in place.
 * @param {Function} Level - the LevelDB class dynalite constructs
 * @returns {{ reads: () => number, hits: () => number }} counters, for the tests
 */
function cacheTableDescriptions(Level) {
  const proto = Level.prototype;
  if (proto.__lakelineTableCache) return proto.__lakelineTableCache;
  const { get, put, del, batch } = proto;

  /** JSON text of each cached description, by LevelDB key. */
  const texts = new Map();
  /** Bumped before and after every write of a key, so a read that overlapped a write is not kept. */
  const versions = new Map();
  /** The same for chained batches, whose keys are not known up front: they count for every key. */
  let chainedWrites = 0;
  const versionOf = (key) => `${versions.get(key) || 0}/${chainedWrites}`;
  let reads = 0;
  let hits = 0;
  const bump = (key) => {
    versions.set(key, (versions.get(key) || 0) + 1);
    texts.delete(key);
  };
  const writing = (keys, run) => {
    for (const key of keys) bump(key);
    const done = () => keys.forEach(bump);
    const result = run();
    if (result && typeof result.then === 'function') result.then(done, done);
    else done();
    return result;
  };

  proto.get = function (key, ...rest) {
    if (!isTableKey(key) || rest.length > 0) return get.call(this, key, ...rest);
    reads++;
    const text = texts.get(key);
    if (text !== undefined) {
      hits++;
      return Promise.resolve(JSON.parse(text));
    }
    const version = versionOf(key);
    return get.call(this, key).then((value) => {
      if (value !== undefined && versionOf(key) === version) texts.set(key, JSON.stringify(value));
      return value;
    });
  };
  proto.put = function (key, ...rest) {
    return isTableKey(key) ? writing([key], () => put.call(this, key, ...rest)) : put.call(this, key, ...rest);
  };
  proto.del = function (key, ...rest) {
    return isTableKey(key) ? writing([key], () => del.call(this, key, ...rest)) : del.call(this, key, ...rest);
  };
  proto.batch = function (operations, ...rest) {
    // A chained batch (no array) names its keys later: its write drops every copy, before and after.
    if (!Array.isArray(operations)) {
      const chained = batch.call(this, operations, ...rest);
      const write = chained.write.bind(chained);
      const dropAll = () => {
        chainedWrites++;
        texts.clear();
      };
      chained.write = (...args) => {
        dropAll();
        const result = write(...args);
        if (result && typeof result.then === 'function') result.then(dropAll, dropAll);
        else dropAll();
        return result;
      };
      return chained;
    }
    const keys = operations.map((op) => op.key).filter(isTableKey);
    return keys.length > 0 ? writing(keys, () => batch.call(this, operations, ...rest)) : batch.call(this, operations, ...rest);
  };
  proto.__lakelineTableCache = { reads: () => reads, hits: () => hits };
  return proto.__lakelineTableCache;
}

// 2. The response checksum computed natively.
//
// dynalite sets `x-amz-crc32` on every response (the SDK checks it) with the `buffer-crc32`
// package: a JavaScript loop over every byte of the body, about a tenth of the store's CPU for a
// BatchGetItem of 100 items. Node's zlib computes the same CRC-32 natively.

/**
 * Replaces `unsigned` of dynalite's `buffer-crc32` module (the only function dynalite calls) with
 * zlib's CRC-32 of the same bytes (a string is taken as UTF-8, as `buffer-crc32` takes it).
 * @param {{ unsigned: Function }} crc32 - the module object dynalite requires
 */
function nativeResponseChecksum(crc32) {
  const zlib = require('node:zlib');
  if (typeof zlib.crc32 !== 'function') return; // Node before 20.15: keep the JavaScript loop
  crc32.unsigned = (buffer, previous) => (previous === undefined ? zlib.crc32(buffer) : zlib.crc32(buffer, Buffer.isBuffer(previous) ? previous.readUInt32BE(0) : previous));
}

// 3. Expressions parsed once.
//
// dynalite parses every request's expressions with its PEG parsers: 75 µs for the single event's
// `attribute_not_exists(pk)` on the development machine, 15% of the store's CPU for one event's
// conditional PutItem (bench/ingest-profile.ts). The service sends the same few expression texts
// again and again, so a parse is kept per parser, text and name map, and each request gets its own
// copy of the result. Expressions with values (`:v`) are parsed every time: the values are part of
// the result and differ per request. A cached parse repeats the parser's one side effect on the
// request's context: the names it used are struck from the unused names (dynalite refuses a
// request with an unused name).

/** Most parses kept per parser; past it the cache starts again (the service uses a few dozen texts). */
const MAX_CACHED_PARSES = 1_000;

/**
 * Wraps `parse` of dynalite's expression parser modules (condition, projection, update) with a
 * cache of results by expression text and `ExpressionAttributeNames`, for expressions without values.
 * @param {Array<{ parse: Function }>} parsers - the parser modules dynalite requires
 * @returns {{ parses: () => number, hits: () => number }} counters, for the tests
 */
function cacheExpressionParses(parsers) {
  let parses = 0;
  let hits = 0;
  for (const parser of parsers) {
    if (parser.__lakelineParseCache) continue;
    const parse = parser.parse;
    const cache = new Map();
    parser.parse = function (text, options, ...rest) {
      const context = options && options.context;
      const values = context && context.attrVals;
      if (!context || (values && Object.keys(values).length > 0)) return parse.call(this, text, options, ...rest);
      const key = `${text}\u0000${context.attrNames ? JSON.stringify(context.attrNames) : ''}`;
      const cached = cache.get(key);
      if (cached !== undefined) {
        hits++;
        for (const name of cached.used) delete context.unusedAttrNames[name];
        return structuredClone(cached.result);
      }
      parses++;
      const unusedBefore = Object.keys(context.unusedAttrNames || {});
      // A syntax error throws: not kept, the next request parses (and throws) again.
      const result = parse.call(this, text, options, ...rest);
      const used = unusedBefore.filter((name) => !(name in context.unusedAttrNames));
      if (cache.size >= MAX_CACHED_PARSES) cache.clear();
      cache.set(key, { result: structuredClone(result), used });
      return result;
    };
    parser.__lakelineParseCache = true;
  }
  return { parses: () => parses, hits: () => hits };
}

module.exports = { cacheTableDescriptions, nativeResponseChecksum, cacheExpressionParses, TABLE_PREFIX };
