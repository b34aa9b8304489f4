// Closes the LevelDB iterators dynalite abandons (docs/adr/0036-local-store-repair-and-iterators.md).
//
// dynalite 4 serves every Query and Scan from a Node stream over a LevelDB iterator
// (`createKeyStream`/`createValueStream` in its db/index.js) and releases it with
// `iterator.return()` when the stream is destroyed: when the query has its `Limit` of items, and
// when the stream ends. The iterators of level 10 (abstract-level 3) have no `return` — they have
// `close()` — so none is ever closed. Each stays open until the store closes, holding its
// read-ahead entries, its LevelDB snapshot and, with it, every memtable and table file version
// current when it was opened: the store process's memory grew by hundreds of megabytes a minute
// under a mix of writes and queries and never came down.
//
// The store process installs this before dynalite loads: every iterator the LevelDB class hands
// out gets a `return` that closes it (once), and the number still open is counted for the tests
// and the benchmark. LAKELINE_STORE_ITERATOR_FIX=off leaves dynalite's behaviour as it ships.
'use strict';

/**
 * Patches `Level.prototype` (the `level` package dynalite uses) in place.
 * @param {Function} Level - the LevelDB class dynalite constructs
 * @param {{ close?: boolean }} [options] - `close: false` only counts (the side-by-side benchmark)
 * @returns {{ open: () => number, opened: () => number }} iterators open now, and opened in all
 */
function closeAbandonedIterators(Level, options = {}) {
  const proto = Level.prototype;
  if (proto.__lakelineIterators) return proto.__lakelineIterators;
  const closeOnReturn = options.close !== false;
  let open = 0;
  let opened = 0;
  for (const method of ['iterator', 'keys', 'values']) {
    const create = proto[method];
    if (typeof create !== 'function') continue;
    proto[method] = function (...args) {
      const iterator = create.apply(this, args);
      opened++;
      open++;
      const close = iterator.close;
      let closing;
      iterator.close = function (...closeArgs) {
        if (closing === undefined) {
          closing = close.apply(this, closeArgs);
          closing.then(
            () => open--,
            () => open--,
          );
        }
        return closing;
      };
      if (closeOnReturn && typeof iterator.return !== 'function') {
        iterator.return = (value) => iterator.close().then(() => ({ done: true, value }));
      }
      return iterator;
    };
  }
  proto.__lakelineIterators = { open: () => open, opened: () => opened };
  return proto.__lakelineIterators;
}

module.exports = { closeAbandonedIterators };
