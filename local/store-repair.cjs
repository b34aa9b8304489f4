// Start-up repair of the local store: index entries that do not match an item are removed.
//
// dynalite writes an item's index entries first and the item after them, in separate LevelDB
// writes (db/index.js `updateIndexes`, then `itemDb.put`). A store process killed between the two
// (kill -9, out of memory, power loss) leaves entries whose item never landed, or, for an update,
// entries naming attribute values the item never got; queries on the index go on returning them.
// The request that wrote them was never acknowledged, so nothing stored is lost by removing them.
//
// The store process runs this on the store before dynalite opens it (nothing else writes then),
// on every start: the entries of each index of each table are read in key order, their items
// fetched by batches of keys, and an entry is kept only if its item exists and gives that same
// index key. Keys are computed with dynalite's own functions, so the layout cannot drift.
'use strict';

/** Entries whose items are fetched in one `getMany`. */
const CHUNK = 1_000;

/** The key range of one dynalite sub-database (its keys start with `name~`; names hold no `~`). */
const rangeOf = (name) => ({ gte: `${name}~`, lt: `${name}\u007f` });

/**
 * Removes the index entries of every table of the store that no item backs.
 * @param {import('level').Level} db - the store's LevelDB, open, with `valueEncoding: 'json'`
 * @param {{ createKey: Function, createIndexKey: Function }} keys - dynalite's key functions (`dynalite/db`)
 * @returns {Promise<{ examined: number, removed: number, byIndex: Record<string, number> }>}
 */
async function removeStrayIndexEntries(db, keys) {
  const tables = [];
  for await (const table of db.values(rangeOf('table'))) tables.push(table);
  let examined = 0;
  let removed = 0;
  const byIndex = {};
  for (const table of tables) {
    const itemPrefix = `item-${table.TableName}~`;
    const indexes = [
      ...(table.LocalSecondaryIndexes || []).map((index) => ['local', index]),
      ...(table.GlobalSecondaryIndexes || []).map((index) => ['global', index]),
    ];
    for (const [type, index] of indexes) {
      const name = `index-${type}~${table.TableName}~${index.IndexName}`;
      const prefixLength = name.length + 1;
      const backed = (item, entryKey) => {
        if (item === undefined) return false;
        if (!index.KeySchema.every((key) => item[key.AttributeName] !== undefined && item[key.AttributeName] !== null)) return false;
        return keys.createIndexKey(item, table, index.KeySchema) === entryKey.slice(prefixLength);
      };
      let chunk = [];
      const check = async () => {
        const items = await db.getMany(chunk.map(([, entry]) => itemPrefix + keys.createKey(entry, table)));
        const stray = chunk.filter(([entryKey], i) => !backed(items[i], entryKey));
        if (stray.length > 0) await db.batch(stray.map(([entryKey]) => ({ type: 'del', key: entryKey })));
        examined += chunk.length;
        removed += stray.length;
        if (stray.length > 0) byIndex[`${table.TableName}.${index.IndexName}`] = (byIndex[`${table.TableName}.${index.IndexName}`] || 0) + stray.length;
        chunk = [];
      };
      // The iterator reads a snapshot: deleting entries behind it changes nothing it returns.
      for await (const entry of db.iterator(rangeOf(name))) {
        chunk.push(entry);
        if (chunk.length >= CHUNK) await check();
      }
      if (chunk.length > 0) await check();
    }
  }
  return { examined, removed, byIndex };
}

module.exports = { removeStrayIndexEntries };
