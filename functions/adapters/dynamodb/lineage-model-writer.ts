/**
 * @module adapters/dynamodb/lineage-model-writer
 * The appliers' half of the lineage model on DynamoDB: records written with compare-and-set on a
 * `rev` attribute; grow-only sets with atomic `ADD`, spilling to shard items once a set nears its
 * item's share of the 400 KB limit; large bodies gzipped and, above their share, split into
 * content-addressed chunk items; order entries, listings, and the change notice for readers.
 */
import { createHash } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FacetEntry } from '#domain/lineage-graph/facets';
import { namespaceIdOf, type QualifiedName } from '#domain/lineage-graph/ids';
import type { DatasetSetAdd, IndexEntry, LineageModel } from '#domain/lineage-graph/ports';
import type { DatasetRecord, JobHeadLinks, JobHeadRecord, NamespaceRecord, RunRecord } from '#domain/lineage-graph/records';
import { batchDeleteAll, batchPutAll } from './batch-ops.ts';
import { childKey, columnLineageKey, datasetKey, datasetListingPk, headKey, jobListingPk, listingSk, overflowKey, pack, packedNames, runKey, runOrderKey, searchPk, versionOrderKey, type BlobChunk } from './lineage-items.ts';
import { searchStamp } from './lineage-search-cache.ts';
import { type Item, isConditionFailure, itemKey, keyString, INLINE, MAX_SET_MEMBERS_INLINE, OVERFLOW_SHARDS, SET_ATTRIBUTES, searchFields } from './lineage-model-base.ts';
import { DynamoLineageModelReader } from './lineage-model-reader.ts';

/**
 * One org generation of the model, both halves: the reads of {@link DynamoLineageModelReader} and
 * the appliers' writes (the port's `LineageModelWriter`). Records are written with compare-and-set on
 * their `rev`; a consumer notes every job and dataset it reads or writes, and `publishChanges`
 * tells readers' caches.
 */
export class DynamoLineageModel extends DynamoLineageModelReader implements LineageModel {
  private async writeChunks(chunks: readonly BlobChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    const results = await batchPutAll(this.doc, this.tableName, itemKey, chunks as unknown as Item[], 2);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: a body chunk could not be written; retry later');
  }

  /** Writes a whole item if its `rev` is still `expectedRev`; the new revision, or null. */
  private async putIfRev(item: Item, expectedRev: number | null): Promise<number | null> {
    const rev = (expectedRev ?? 0) + 1;
    try {
      await this.gate.run(() =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...item, rev },
            ConditionExpression: expectedRev === null ? 'attribute_not_exists(pk)' : 'rev = :rev',
            ...(expectedRev === null ? {} : { ExpressionAttributeValues: { ':rev': expectedRev } }),
          }),
        ),
      );
      return rev;
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
  }

  async publishChanges(): Promise<void> {
    if (this.touched.jobIds.size + this.touched.datasetIds.size === 0) return;
    const changed = { jobIds: new Set(this.touched.jobIds), datasetIds: new Set(this.touched.datasetIds) };
    this.touched.jobIds.clear();
    this.touched.datasetIds.clear();
    await this.records.publish(this.scope, changed);
  }

  async putRun(run: RunRecord, expectedRev: number | null): Promise<number | null> {
    const { attributes, chunks } = pack(this.scope, 'b', run, INLINE.run);
    await this.writeChunks(chunks);
    return this.putIfRev({ ...runKey(this.scope, run.runId), ...attributes }, expectedRev);
  }

  async putJobHead(head: JobHeadRecord, expectedRev: number | null): Promise<number | null> {
    const { jobId, namespace, name, current, inputs, outputs, updatedAt, ...body } = head;
    const links: JobHeadLinks = { jobId, namespace, name, current, inputs, outputs, updatedAt };
    this.noteJobs([jobId]);
    const packedLinks = pack(this.scope, 'i', links, INLINE.headLinks);
    const packedBody = pack(this.scope, 'b', body, INLINE.headBody);
    await this.writeChunks([...packedLinks.chunks, ...packedBody.chunks]);
    const key = headKey(this.scope, jobId);
    const { fields, signature } = searchFields('J', head, updatedAt);
    const stamp = this.stamps.stampFor(key.pk, expectedRev, signature) ?? searchStamp(this.now(), jobId);
    const rev = await this.putIfRev({ ...key, ...packedLinks.attributes, ...packedBody.attributes, ...fields, gsp: searchPk(this.scope, jobId), gss: stamp }, expectedRev);
    if (rev !== null) this.stamps.remember(key.pk, rev, signature, stamp);
    return rev;
  }

  async putDataset(record: DatasetRecord, expectedRev: number | null, setAdds: readonly DatasetSetAdd[] = []): Promise<number | null> {
    this.noteDatasets([record.datasetId]);
    const { columnLineage, schema, ...otherFacets } = record.facets;
    const parts = [pack(this.scope, 'b', { ...record, facets: otherFacets }, INLINE.datasetBody), pack(this.scope, 'h', schema ?? null, INLINE.schema)];
    const key = datasetKey(this.scope, record.datasetId);
    const register = columnLineage ? await this.writeColumnLineage(key.pk, record.datasetId, columnLineage) : undefined;
    await this.writeChunks(parts.flatMap((p) => p.chunks));
    const { fields, signature } = this.datasetSearch(record);
    const stamp = this.stamps.stampFor(key.pk, expectedRev, signature) ?? searchStamp(this.now(), record.datasetId);
    const rev = (expectedRev ?? 0) + 1;
    const set: Record<string, unknown> = {
      ...Object.assign({}, ...parts.map((p) => p.attributes)),
      ...fields,
      rev,
      dns: record.namespace,
      dnm: record.name,
      sl: JSON.stringify(record.symlinkTargets),
      ...(register ? { cr: register } : {}),
      gsp: searchPk(this.scope, record.datasetId),
      gss: stamp,
    };
    // Sets (writers, readers, …) live in the same item and are added to concurrently: update the
    // attributes this write owns, never the whole item.
    const remove = [...packedNames('b'), ...packedNames('h'), 'sa', 'cr'].filter((name) => !(name in set));
    // The sets' additions ride along (ADD is atomic with the SET), each within its item's room as
    // in `addToSet`: a set past it fails the condition like a conflict, and the applier then adds
    // to it on its own (spilling to shard items) before retrying the record.
    const adds = this.mergedAdds(setAdds.filter((a) => a.datasetId === record.datasetId));
    const added = adds.map((a) => ({ attribute: SET_ATTRIBUTES[a.set].set, members: a.members }));
    const names = Object.fromEntries([...Object.keys(set), ...remove, ...added.map((a) => a.attribute)].map((name, i) => [`#a${i}`, name]));
    const alias = Object.fromEntries(Object.entries(names).map(([k, v]) => [v, k]));
    const addClause = added.length ? ` ADD ${added.map((a) => `${alias[a.attribute]} :${alias[a.attribute]?.slice(1)}`).join(', ')}` : '';
    const roomCondition = added.map((a) => ` AND (attribute_not_exists(${alias[a.attribute]}) OR size(${alias[a.attribute]}) <= :r${alias[a.attribute]?.slice(2)})`).join('');
    const addValues = Object.fromEntries(
      added.flatMap((a) => [
        [`:${alias[a.attribute]?.slice(1)}`, new Set(a.members)],
        [`:r${alias[a.attribute]?.slice(2)}`, MAX_SET_MEMBERS_INLINE - a.members.length],
      ]),
    );
    try {
      await this.gate.run(() =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: `SET ${Object.keys(set).map((n) => `${alias[n]} = :${alias[n]?.slice(1)}`).join(', ')}${remove.length ? ` REMOVE ${remove.map((n) => alias[n]).join(', ')}` : ''}${addClause}`,
            ConditionExpression: `${expectedRev === null ? 'attribute_not_exists(rev)' : 'rev = :expected'}${roomCondition}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: {
              ...Object.fromEntries(Object.entries(set).map(([n, v]) => [`:${alias[n]?.slice(1)}`, v])),
              ...addValues,
              ...(expectedRev === null ? {} : { ':expected': expectedRev }),
            },
          }),
        ),
      );
    } catch (err) {
      if (isConditionFailure(err)) return null;
      throw err;
    }
    this.stamps.remember(key.pk, rev, signature, stamp);
    return rev;
  }

  /**
   * Stores a `columnLineage` register's value in its own content-addressed item (unless this
   * process knows the dataset already points at it) and answers the register to keep in the item.
   */
  private async writeColumnLineage(pk: string, datasetId: string, entry: FacetEntry): Promise<string> {
    if (entry.d) return JSON.stringify({ k: entry.k, d: true });
    const hash = createHash('sha256').update(JSON.stringify(entry.v)).digest('hex').slice(0, 32);
    if (!this.columnLineageRefs.has(pk, hash)) {
      const { attributes, chunks } = pack(this.scope, 'v', entry.v, INLINE.columnLineage);
      await this.writeChunks(chunks);
      await this.gate.run(() => this.doc.send(new PutCommand({ TableName: this.tableName, Item: { ...columnLineageKey(this.scope, datasetId, hash), ...attributes } })));
      this.columnLineageRefs.remember(pk, hash);
    }
    return JSON.stringify({ k: entry.k, h: hash });
  }

  async addToDatasetSets(adds: readonly DatasetSetAdd[]): Promise<void> {
    this.noteDatasets(adds.map((a) => a.datasetId));
    await Promise.all(this.mergedAdds(adds).map((add) => this.gate.run(() => this.addToSet(add))));
  }

  /** Additions joined per dataset and set. */
  private mergedAdds(adds: readonly DatasetSetAdd[]): Array<DatasetSetAdd & { members: string[] }> {
    const merged = new Map<string, DatasetSetAdd & { members: string[] }>();
    for (const add of adds) {
      const key = `${add.datasetId}|${add.set}`;
      const known = merged.get(key);
      merged.set(key, { ...add, members: [...new Set([...(known?.members ?? []), ...add.members])] });
    }
    return [...merged.values()];
  }

  /** Adds to a set in its dataset item; past {@link MAX_SET_MEMBERS_INLINE}, to its shard items. */
  private async addToSet(add: DatasetSetAdd & { members: string[] }): Promise<void> {
    const { set, flag } = SET_ATTRIBUTES[add.set];
    const key = datasetKey(this.scope, add.datasetId);
    // A name known only as another's symlink target or column-lineage input gets its identity here.
    const identity = 'dns = if_not_exists(dns, :ns), dnm = if_not_exists(dnm, :nm), st = if_not_exists(st, :st), sn = if_not_exists(sn, :ns), sm = if_not_exists(sm, :nm), gsp = if_not_exists(gsp, :gsp), gss = if_not_exists(gss, :gss)';
    const identityValues = { ':ns': add.namespace, ':nm': add.name, ':st': 'D', ':gsp': searchPk(this.scope, add.datasetId), ':gss': searchStamp(this.now(), add.datasetId) };
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: `ADD #s :m SET ${identity}`,
          ConditionExpression: 'attribute_not_exists(#s) OR size(#s) <= :room',
          ExpressionAttributeNames: { '#s': set },
          ExpressionAttributeValues: { ':m': new Set(add.members), ':room': MAX_SET_MEMBERS_INLINE - add.members.length, ...identityValues },
        }),
      );
      return;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    const byShard = new Map<number, string[]>();
    for (const member of add.members) {
      const shard = Number.parseInt(member.slice(0, 4), 16) % OVERFLOW_SHARDS;
      byShard.set(shard, [...(byShard.get(shard) ?? []), member]);
    }
    await Promise.all(
      [...byShard].map(([shard, members]) =>
        this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: overflowKey(this.scope, add.datasetId, flag, shard), UpdateExpression: 'ADD m :m', ExpressionAttributeValues: { ':m': new Set(members) } })),
      ),
    );
    // The flag is set after the members are in their shards, so a reader that sees it finds them.
    await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: `SET #f = :t, ${identity}`, ExpressionAttributeNames: { '#f': flag }, ExpressionAttributeValues: { ':t': true, ...identityValues } }));
  }

  private entryItem(entry: IndexEntry): Item {
    if (entry.kind === 'run-order') return { ...runOrderKey(this.scope, entry.jobId, entry.ord), ...(entry.static ? { fx: 1 } : {}) };
    if (entry.kind === 'version-order') return versionOrderKey(this.scope, entry.datasetId, entry.ord);
    return { ...childKey(this.scope, entry.parentRunId, entry.childRunId), cns: entry.parentJob.namespace, cnm: entry.parentJob.name };
  }

  async findMissingEntries(entries: readonly IndexEntry[]): Promise<IndexEntry[]> {
    const items = entries.map((e) => this.entryItem(e));
    const found = await this.getItems(items.map((i) => ({ pk: String(i.pk), sk: String(i.sk) })), ['pk', 'sk']);
    return entries.filter((_, i) => !found.has(itemKey(items[i] as Item)));
  }

  async putEntries(entries: readonly IndexEntry[]): Promise<void> {
    const items = [...new Map(entries.map((e) => this.entryItem(e)).map((i) => [itemKey(i), i])).values()];
    const results = await batchPutAll(this.doc, this.tableName, itemKey, items, 4);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: some order entries were not written; retry later');
  }

  async deleteEntries(entries: readonly IndexEntry[]): Promise<void> {
    const keys = [...new Map(entries.map((e) => this.entryItem(e)).map((i) => [itemKey(i), { pk: i.pk, sk: i.sk }])).values()];
    await batchDeleteAll(this.doc, this.tableName, keys);
  }

  async getTags(names: readonly string[]): Promise<Set<string>> {
    const items = await this.getItems(names.map((n) => this.tagKey(n)));
    return new Set(names.filter((n) => items.has(keyString(this.tagKey(n)))));
  }

  async putTags(names: readonly string[]): Promise<void> {
    const items = [...new Map(names.map((name) => ({ ...this.tagKey(name), nm: name }) as Item).map((i) => [itemKey(i), i])).values()];
    const results = await batchPutAll(this.doc, this.tableName, itemKey, items, 4);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: some tags were not written; retry later');
  }

  putNamespace(record: NamespaceRecord, expectedRev: number | null): Promise<number | null> {
    return this.putIfRev({ ...this.namespaceKey(record.name), nm: record.name, ca: record.createdAt, ua: record.updatedAt }, expectedRev);
  }

  async putJobListings(jobs: readonly (QualifiedName & { jobId: string })[]): Promise<void> {
    // Plain puts of key-only items: idempotent, so they need no condition and go 25 to a request.
    const items = [...new Map(jobs.map((job) => ({ pk: jobListingPk(this.scope, namespaceIdOf(job.namespace)), sk: listingSk(job.name, job.jobId) }) as Item).map((i) => [itemKey(i), i])).values()];
    const results = await batchPutAll(this.doc, this.tableName, itemKey, items, 4);
    if (results.some((r) => !r.ok)) throw new Error('lineage model: some job listings were not written; retry later');
  }

  async putDatasetListing(dataset: QualifiedName & { datasetId: string; aliased: boolean }): Promise<void> {
    const key = { pk: datasetListingPk(this.scope, namespaceIdOf(dataset.namespace)), sk: listingSk(dataset.name, dataset.datasetId) };
    // `al` only ever turns on (a name that resolved elsewhere once always will: symlink targets only grow).
    await this.gate.run(() =>
      this.doc.send(
        new UpdateCommand({ TableName: this.tableName, Key: key, UpdateExpression: dataset.aliased ? 'SET al = :t' : 'SET al = if_not_exists(al, :f)', ExpressionAttributeValues: dataset.aliased ? { ':t': true } : { ':f': false } }),
      ),
    );
  }
}
