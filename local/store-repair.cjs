// Start-up repair of the local store: index entries whose item does not exist are removed.
//
// dynalite writes an item's index entries first and the item after them, in separate LevelDB
// writes (db/index.js `updateIndexes`, then `itemDb.put`). A store process killed between the two
// (kill -9, out of memory, power loss) leaves entries whose item never landed, and queries on the
// index go on returning them. The request that wrote them was never acknowledged, so removing
// them loses nothing stored.
//
// The store process runs this before dynalite opens the store (nothing else writes then), after a
// run that did not close the store cleanly (docs/adr/0036-local-store-repair-and-iterators.md).
// Per table, the keys of its items are read (keys only: no item is decoded), then every entry
// of each of its indexes, whose value holds the item's key attributes; an entry whose item key is
// not among them is deleted. Keys are computed with dynalite's own functions, so the layout cannot
// drift from dynalite's.
'use strict';

/** Stray entries deleted in one LevelDB batch. */
const CHUNK = 1_000;

/** The key range of one dynalite sub-database (its keys start with `name~`; names hold no `~`). */
const rangeOf = (name) => ({ gte: `${name}~`, lt: `${name}\u007f` });

/**
 * Removes the index entries of every table of the store whose item does not exist.
 * @param {import('level').Level} db - the store's LevelDB, open, with `valueEncoding: 'json'`
 * @param {{ createKey: Function }} keys - dynalite's key functions (`dynalite/db`)
 * @returns {Promise<{ examined: number, removed: number, byIndex: Record<string, number> }>}
 */
async function removeStrayIndexEntries(db, keys) {
  const tables = [];
  for await (const table of db.values(rangeOf('table'))) tables.push(table);
  let examined = 0;
  let removed = 0;
  const byIndex = {};
  for (const table of tables) {
    const indexes = [
      ...(table.LocalSecondaryIndexes || []).map((index) => ['local', index]),
      ...(table.GlobalSecondaryIndexes || []).map((index) => ['global', index]),
    ];
    if (indexes.length === 0) continue;
    const itemSpace = `item-${table.TableName}`;
    const items = new Set();
    for await (const key of db.keys(rangeOf(itemSpace))) items.add(key.slice(itemSpace.length + 1));
    for (const [type, index] of indexes) {
      let stray = [];
      const remove = async () => {
        await db.batch(stray.map((key) => ({ type: 'del', key })));
        removed += stray.length;
        byIndex[`${table.TableName}.${index.IndexName}`] = (byIndex[`${table.TableName}.${index.IndexName}`] || 0) + stray.length;
        stray = [];
      };
      // The iterator reads a snapshot: deleting entries behind it changes nothing it returns.
      for await (const [key, entry] of db.iterator(rangeOf(`index-${type}~${table.TableName}~${index.IndexName}`))) {
        examined++;
        if (!items.has(keys.createKey(entry, table))) stray.push(key);
        if (stray.length >= CHUNK) await remove();
      }
      if (stray.length > 0) await remove();
    }
  }
  return { examined, removed, byIndex };
}

module.exports = { removeStrayIndexEntries };
