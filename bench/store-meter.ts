/**
 * @module store-meter
 * A metering proxy in front of the local DynamoDB, for `bench/cost.ts`: every request the service
 * makes goes through it unchanged except for `ReturnConsumedCapacity: TOTAL`, and the proxy adds
 * up, per table and per kind of request, the requests and the capacity units the store reports.
 *
 * dynalite reports the base table's units only. DynamoDB also charges a write to each global
 * secondary index whose keys the written item carries (the index entry's size: the table's key,
 * the index's keys and the projected attributes, rounded up to 1 KB), so the proxy adds those from
 * the items it sees written, with the indexes of `#shared/table-definitions`. An UpdateItem's
 * resulting item is not in its request: one that sets an index key is counted as one index write
 * (a lower bound: DynamoDB charges two when an update moves an entry). A conditional write that
 * fails is charged as DynamoDB does, by the item's size.
 *
 * What only the local profile writes can be left out ({@link LocalOnly}): the local feed's receipt
 * index and its attributes (in AWS the table's stream is the feed, and items carry neither).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_TABLES, type TableDefinition } from '#shared/table-definitions';

/** Counts of one kind of request. */
export interface MeterLine {
  requests: number;
  /** Read request units (the store's ConsumedCapacity of reads). */
  readUnits: number;
  /** Write request units of the base table (the store's ConsumedCapacity of writes). */
  writeUnits: number;
  /** Write request units of the table's indexes (computed here, see the module's comment). */
  indexWriteUnits: number;
  /** Items read or written. */
  items: number;
}

/** The meter's counts: `<table> <operation>[ <detail>]` → counts. */
export type MeterCounts = Record<string, MeterLine>;

/** Index entries and attributes the local profile writes and AWS does not: not counted. */
export interface LocalOnly {
  readonly indexes: readonly string[];
  readonly attributes: readonly string[];
}

/** A running meter. */
export interface StoreMeter {
  readonly endpoint: string;
  /** A copy of the counts so far. */
  snapshot(): MeterCounts;
  stop(): Promise<void>;
}

type AttributeValue = Record<string, unknown>;

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const METERED = new Set(['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'Query', 'Scan', 'BatchGetItem', 'BatchWriteItem', 'TransactGetItems', 'TransactWriteItems']);

/** Table definitions by the local table names' endings (`lakeline-local-<id>`, bench prefixes). */
const definitionOf = (tableName: string): TableDefinition | undefined => ALL_TABLES.find((t) => tableName.endsWith(t.id));

/** DynamoDB's size of an attribute value (wire format): strings and binaries by length, numbers about their digits. */
const valueSize = (value: AttributeValue): number => {
  if (typeof value.S === 'string') return Buffer.byteLength(value.S);
  if (typeof value.B === 'string') return Math.floor((value.B.length * 3) / 4);
  if (typeof value.N === 'string') return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (Array.isArray(value.L)) return 3 + (value.L as AttributeValue[]).reduce((s, v) => s + 1 + valueSize(v), 0);
  if (value.M !== undefined) return 3 + Object.entries(value.M as Record<string, AttributeValue>).reduce((s, [k, v]) => s + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  for (const set of ['SS', 'NS', 'BS'] as const) if (Array.isArray(value[set])) return (value[set] as string[]).reduce((s, v) => s + Buffer.byteLength(v), 0);
  return 0;
};
const attributesSize = (item: Record<string, AttributeValue>, names?: readonly string[]): number =>
  (names ?? Object.keys(item)).reduce((s, name) => (item[name] === undefined ? s : s + Buffer.byteLength(name) + valueSize(item[name] as AttributeValue)), 0);
const units = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1_024));

/** The index writes of putting `item` into `table` (each index whose keys the item has). */
const indexWritesOfPut = (table: TableDefinition | undefined, item: Record<string, AttributeValue>, localOnly: LocalOnly): number => {
  if (table === undefined) return 0;
  const tableKeys = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
  let total = 0;
  for (const index of table.indexes) {
    if (localOnly.indexes.includes(index.indexName)) continue;
    const indexKeys = [index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])];
    if (indexKeys.some((k) => item[k] === undefined)) continue;
    const projected = index.projection === 'ALL' ? Object.keys(item) : [...new Set([...tableKeys, ...indexKeys, ...(index.projection === 'KEYS_ONLY' ? [] : index.projection)])];
    total += units(attributesSize(item, projected));
  }
  return total;
};

/** The index writes of an UpdateItem: one per index whose key attribute the update names (a lower bound). */
const indexWritesOfUpdate = (table: TableDefinition | undefined, request: Record<string, unknown>): number => {
  if (table === undefined) return 0;
  const names = Object.values((request.ExpressionAttributeNames ?? {}) as Record<string, string>);
  const expression = String(request.UpdateExpression ?? '');
  const named = (attribute: string) => names.includes(attribute) || new RegExp(`\\b${attribute}\\b`).test(expression);
  return table.indexes.filter((index) => named(index.partitionKey.name) || (index.sortKey !== undefined && named(index.sortKey.name))).length;
};

/**
 * Starts the meter on a free loopback port, forwarding to `target` (the local DynamoDB).
 *
 * @param classify - a detail appended to a request's line (e.g. which part of the service made it),
 *   from the operation and its request; `undefined` for none
 */
export const startStoreMeter = async (
  target: string,
  classify: (operation: string, request: Record<string, unknown>) => string | undefined = () => undefined,
  localOnly: LocalOnly = { indexes: [], attributes: [] },
): Promise<StoreMeter> => {
  /** The write units the local-only attributes add to an item (taken off the store's figure). */
  const localOnlyUnits = (item: Record<string, AttributeValue>): number => {
    const present = localOnly.attributes.filter((name) => item[name] !== undefined);
    if (present.length === 0) return 0;
    const without = Object.fromEntries(Object.entries(item).filter(([name]) => !present.includes(name)));
    return units(attributesSize(item)) - units(attributesSize(without));
  };
  const counts: MeterCounts = {};
  const line = (key: string): MeterLine => (counts[key] ??= { requests: 0, readUnits: 0, writeUnits: 0, indexWriteUnits: 0, items: 0 });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const targetUrl = new URL(target);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
      let body = Buffer.concat(chunks);
      let request: Record<string, unknown> = {};
      if (METERED.has(operation)) {
        request = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
        body = Buffer.from(JSON.stringify({ ...request, ReturnConsumedCapacity: 'TOTAL' }));
      }
      const headers = { ...req.headers, 'content-length': String(body.length), host: targetUrl.host };
      const upstream = http.request({ host: targetUrl.hostname, port: targetUrl.port, method: req.method, path: req.url, headers, agent }, (answer) => {
        const out: Buffer[] = [];
        answer.on('data', (c: Buffer) => out.push(c));
        answer.on('end', () => {
          const text = Buffer.concat(out);
          if (METERED.has(operation)) account(operation, request, answer.statusCode ?? 0, text);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      });
      upstream.on('error', (err) => {
        res.writeHead(502);
        res.end(String(err));
      });
      upstream.end(body);
    });
  });

  const account = (operation: string, request: Record<string, unknown>, status: number, text: Buffer): void => {
    const detail = classify(operation, request);
    const tableOf = (name: string) => `${name.replace(/^.*-/, '')} ${operation}${detail === undefined ? '' : ` ${detail}`}`;
    let answer: Record<string, unknown> = {};
    try {
      answer = JSON.parse(text.toString('utf8')) as Record<string, unknown>;
    } catch {
      // An empty or non-JSON answer: counted as a request without units.
    }
    const tables = new Set<string>();
    if (typeof request.TableName === 'string') tables.add(request.TableName);
    for (const name of Object.keys((request.RequestItems ?? {}) as object)) tables.add(name);
    const key = tableOf([...tables][0] ?? 'unknown');
    const entry = line(key);
    entry.requests += 1;
    const capacities = (Array.isArray(answer.ConsumedCapacity) ? answer.ConsumedCapacity : answer.ConsumedCapacity ? [answer.ConsumedCapacity] : []) as { CapacityUnits?: number }[];
    const reported = capacities.reduce((s, c) => s + (c.CapacityUnits ?? 0), 0);
    const table = definitionOf([...tables][0] ?? '');
    if (status >= 400) {
      // A failed condition is charged as the write it would have been (DynamoDB's rule).
      if (String(answer.__type ?? '').endsWith('ConditionalCheckFailedException') && request.Item !== undefined) {
        entry.writeUnits += units(attributesSize(request.Item as Record<string, AttributeValue>));
        entry.items += 1;
      }
      return;
    }
    if (WRITES.has(operation)) entry.writeUnits += reported;
    else entry.readUnits += reported;
    if (operation === 'PutItem') {
      entry.indexWriteUnits += indexWritesOfPut(table, request.Item as Record<string, AttributeValue>, localOnly);
      entry.writeUnits -= localOnlyUnits(request.Item as Record<string, AttributeValue>);
      entry.items += 1;
    } else if (operation === 'UpdateItem') {
      entry.indexWriteUnits += indexWritesOfUpdate(table, request);
      entry.items += 1;
    } else if (operation === 'BatchWriteItem') {
      const unprocessed = new Set(Object.values((answer.UnprocessedItems ?? {}) as Record<string, unknown[]>).flat().map((r) => JSON.stringify(r)));
      for (const [name, writes] of Object.entries(request.RequestItems as Record<string, { PutRequest?: { Item: Record<string, AttributeValue> } }[]>)) {
        for (const write of writes) {
          if (unprocessed.has(JSON.stringify(write)) || write.PutRequest === undefined) continue;
          entry.indexWriteUnits += indexWritesOfPut(definitionOf(name), write.PutRequest.Item, localOnly);
          entry.writeUnits -= localOnlyUnits(write.PutRequest.Item);
          entry.items += 1;
        }
      }
    } else if (operation === 'BatchGetItem') {
      entry.items += Object.values((answer.Responses ?? {}) as Record<string, unknown[]>).reduce((s, items) => s + items.length, 0);
    } else if (operation === 'Query' || operation === 'Scan') {
      entry.items += Number(answer.Count ?? 0);
    } else if (operation === 'GetItem') {
      entry.items += answer.Item === undefined ? 0 : 1;
    }
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    snapshot: () => structuredClone(counts),
    stop: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** The counts of `after` minus those of `before`. */
export const meterDelta = (after: MeterCounts, before: MeterCounts): MeterCounts => {
  const out: MeterCounts = {};
  for (const [key, a] of Object.entries(after)) {
    const b = before[key] ?? { requests: 0, readUnits: 0, writeUnits: 0, indexWriteUnits: 0, items: 0 };
    const d = { requests: a.requests - b.requests, readUnits: a.readUnits - b.readUnits, writeUnits: a.writeUnits - b.writeUnits, indexWriteUnits: a.indexWriteUnits - b.indexWriteUnits, items: a.items - b.items };
    if (d.requests > 0) out[key] = d;
  }
  return out;
};
