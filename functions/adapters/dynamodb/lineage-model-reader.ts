/**
 * @module adapters/dynamodb/lineage-model-reader
 * The readers' half of the lineage model on DynamoDB: runs, job heads, dataset names (links,
 * nodes, column lineage), order and parent entries, namespaces and listings, and search entries.
 * Reads are batched (BatchGetItem of up to 100 keys, in parallel) and never scan.
 */
import type { FacetEntry } from '#domain/lineage-graph/facets';
import { namespaceIdOf, tagIdOf, type QualifiedName } from '#domain/lineage-graph/ids';
import { canonicalNameOf } from '#domain/lineage-graph/merge';
import type { IdPage, LineageModelReader, OrderQuery, Page, Versioned } from '#domain/lineage-graph/ports';
import type { DatasetColumnLineage, DatasetLinks, DatasetNode, DatasetRecord, DatasetSetName, JobHeadLinks, JobHeadRecord, NamespaceRecord, OrderEntry, RunRecord, SearchEntry } from '#domain/lineage-graph/records';
import { childKey, datasetKey, datasetListingPk, headKey, idOfListingSk, jobListingPk, listingSk, namespacesPk, overflowKey, tagsPk, packedNames, runKey, runOrderKey, versionOrderKey } from './lineage-items.ts';
import { DynamoLineageModelBase, type Item, type Key, keyString, OVERFLOW_SHARDS, SET_ATTRIBUTES, LINK_ATTRIBUTES, searchFields } from './lineage-model-base.ts';

/**
 * What readers read of one org generation of the model ({@link LineageModelReader}). A reader's
 * model (eventually consistent reads) serves job heads and dataset nodes through the process's
 * record cache; a consumer's (strongly consistent) reads the store every time and notes every job
 * and dataset it reads, for `publishChanges`.
 */
export class DynamoLineageModelReader extends DynamoLineageModelBase implements LineageModelReader {
  async getRuns(runIds: readonly string[]): Promise<Map<string, Versioned<RunRecord>>> {
    const items = await this.getItems(runIds.map((id) => runKey(this.scope, id)));
    const out = new Map<string, Versioned<RunRecord>>();
    await Promise.all(
      runIds.map(async (id) => {
        const item = items.get(keyString(runKey(this.scope, id)));
        const value = item ? await this.unpack<RunRecord>(item, 'b') : undefined;
        if (item && value) out.set(id, { value, rev: Number(item.rev) });
      }),
    );
    return out;
  }

  async getJobHeads(jobIds: readonly string[]): Promise<Map<string, Versioned<JobHeadRecord>>> {
    if (!this.consistentReads) return this.records.read(this.scope, 'J', jobIds, (ids) => this.readJobHeads(ids));
    this.noteJobs(jobIds);
    return this.readJobHeads(jobIds);
  }

  protected async readJobHeads(jobIds: readonly string[]): Promise<Map<string, Versioned<JobHeadRecord>>> {
    const items = await this.getItems(jobIds.map((id) => headKey(this.scope, id)));
    const out = new Map<string, Versioned<JobHeadRecord>>();
    await Promise.all(
      jobIds.map(async (id) => {
        const item = items.get(keyString(headKey(this.scope, id)));
        if (!item) return;
        const [links, body] = await Promise.all([this.unpack<JobHeadLinks>(item, 'i'), this.unpack<Omit<JobHeadRecord, keyof JobHeadLinks>>(item, 'b')]);
        if (!links || !body) return;
        const rev = Number(item.rev);
        const { signature } = searchFields('J', links, links.updatedAt);
        this.stamps.remember(String(item.pk), rev, signature, String(item.gss));
        out.set(id, { value: { ...links, ...body }, rev });
      }),
    );
    return out;
  }

  async getJobLinks(jobIds: readonly string[]): Promise<Map<string, JobHeadLinks>> {
    this.noteJobs(jobIds);
    const items = await this.getItems(jobIds.map((id) => headKey(this.scope, id)), ['pk', 'sk', ...packedNames('i')]);
    const out = new Map<string, JobHeadLinks>();
    await Promise.all(
      jobIds.map(async (id) => {
        const item = items.get(keyString(headKey(this.scope, id)));
        const links = item ? await this.unpack<JobHeadLinks>(item, 'i') : undefined;
        if (links) out.set(id, links);
      }),
    );
    return out;
  }

  async getDatasets(datasetIds: readonly string[]): Promise<Map<string, Versioned<DatasetRecord>>> {
    this.noteDatasets(datasetIds);
    const items = await this.getItems(datasetIds.map((id) => datasetKey(this.scope, id)));
    const columnLineage = await this.columnLineageOf(items.values());
    const out = new Map<string, Versioned<DatasetRecord>>();
    await Promise.all(
      datasetIds.map(async (id) => {
        const item = items.get(keyString(datasetKey(this.scope, id)));
        const record = item && item.rev !== undefined ? await this.recordOf(item, columnLineage.get(String(item.pk))) : undefined;
        if (!item || !record) return;
        const rev = Number(item.rev);
        this.stamps.remember(String(item.pk), rev, this.datasetSearch(record).signature, String(item.gss));
        out.set(id, { value: record, rev });
      }),
    );
    return out;
  }

  /** The record of a dataset item (its body, schema and, when asked, column-lineage facets joined). */
  protected async recordOf(item: Item, columnLineage?: FacetEntry): Promise<DatasetRecord | undefined> {
    const [body, schema] = await Promise.all([this.unpack<DatasetRecord>(item, 'b'), this.unpack<FacetEntry | null>(item, 'h')]);
    if (!body) return undefined;
    return { ...body, facets: { ...body.facets, ...(columnLineage ? { columnLineage } : {}), ...(schema ? { schema } : {}) } };
  }

  /** The `columnLineage` registers of dataset items (`cr`), their values read from their own items. */
  protected async columnLineageOf(items: Iterable<Item>): Promise<Map<string, FacetEntry>> {
    const registers = [...items].flatMap((item) => (typeof item.cr === 'string' ? [{ pk: String(item.pk), register: JSON.parse(item.cr) as { k: string; d?: true; h?: string } }] : []));
    const values = await this.getItems(registers.flatMap(({ pk, register }) => (register.h ? [{ pk, sk: `CL#${register.h}` }] : [])));
    const out = new Map<string, FacetEntry>();
    await Promise.all(
      registers.map(async ({ pk, register }) => {
        if (register.d) return void out.set(pk, { k: register.k, d: true });
        const item = values.get(`${pk}\u0000CL#${register.h}`);
        if (!item) throw new Error(`lineage model: column lineage ${register.h} of ${pk} is missing`);
        out.set(pk, { k: register.k, v: await this.unpack<unknown>(item, 'v') });
        this.columnLineageRefs.remember(pk, register.h as string);
      }),
    );
    return out;
  }

  protected datasetSearch(record: DatasetRecord) {
    const canonical = canonicalNameOf(record);
    const aliased = canonical.namespace !== record.namespace || canonical.name !== record.name;
    return searchFields('D', record, record.updatedAt || record.createdAt, aliased ? canonical : undefined);
  }

  protected async readLinks(datasetIds: readonly string[], extra: readonly string[]): Promise<Map<string, { item: Item; links: DatasetLinks }>> {
    const items = await this.getItems(datasetIds.map((id) => datasetKey(this.scope, id)), [...LINK_ATTRIBUTES, ...extra]);
    const overflow: Key[] = [];
    for (const [, item] of items) {
      const id = String(item.pk).slice(String(item.pk).lastIndexOf('#') + 1);
      for (const { flag } of Object.values(SET_ATTRIBUTES)) {
        if (item[flag] === true) for (let s = 0; s < OVERFLOW_SHARDS; s++) overflow.push(overflowKey(this.scope, id, flag, s));
      }
    }
    const spilled = await this.getItems(overflow);
    const out = new Map<string, { item: Item; links: DatasetLinks }>();
    for (const id of datasetIds) {
      const item = items.get(keyString(datasetKey(this.scope, id)));
      if (!item || typeof item.dns !== 'string' || typeof item.dnm !== 'string') continue;
      const members = (name: DatasetSetName): string[] => {
        const { set, flag } = SET_ATTRIBUTES[name];
        const all = new Set<string>(item[set] instanceof Set ? (item[set] as Set<string>) : []);
        if (item[flag] === true) {
          for (let s = 0; s < OVERFLOW_SHARDS; s++) for (const m of (spilled.get(keyString(overflowKey(this.scope, id, flag, s)))?.m as Set<string> | undefined) ?? []) all.add(m);
        }
        return [...all].sort();
      };
      out.set(id, {
        item,
        links: {
          datasetId: id,
          namespace: item.dns,
          name: item.dnm,
          exists: item.rev !== undefined,
          symlinkTargets: typeof item.sl === 'string' ? (JSON.parse(item.sl) as QualifiedName[]) : [],
          writers: members('writers'),
          readers: members('readers'),
          clDown: members('clDown'),
          members: members('members'),
        },
      });
    }
    return out;
  }

  async getDatasetLinks(datasetIds: readonly string[]): Promise<Map<string, DatasetLinks>> {
    this.noteDatasets(datasetIds);
    const found = await this.readLinks(datasetIds, []);
    return new Map([...found].map(([id, { links }]) => [id, links]));
  }

  async getDatasetNodes(datasetIds: readonly string[]): Promise<Map<string, DatasetNode>> {
    if (!this.consistentReads) return this.records.read(this.scope, 'D', datasetIds, (ids) => this.readDatasetNodes(ids));
    this.noteDatasets(datasetIds);
    return this.readDatasetNodes(datasetIds);
  }

  protected async readDatasetNodes(datasetIds: readonly string[]): Promise<Map<string, DatasetNode>> {
    const found = await this.readLinks(datasetIds, [...packedNames('b'), ...packedNames('h')]);
    const out = new Map<string, DatasetNode>();
    await Promise.all(
      [...found].map(async ([id, { item, links }]) => {
        out.set(id, { ...links, record: links.exists ? ((await this.recordOf(item)) ?? null) : null });
      }),
    );
    return out;
  }

  async getDatasetColumnLineage(datasetIds: readonly string[]): Promise<Map<string, DatasetColumnLineage>> {
    this.noteDatasets(datasetIds);
    const found = await this.readLinks(datasetIds, ['cr', ...packedNames('h')]);
    const columnLineage = await this.columnLineageOf([...found.values()].map((f) => f.item));
    const out = new Map<string, DatasetColumnLineage>();
    await Promise.all(
      [...found].map(async ([id, { item, links }]) => {
        const schema = await this.unpack<FacetEntry | null>(item, 'h');
        out.set(id, { ...links, columnLineage: columnLineage.get(String(item.pk)) ?? null, schema: schema ?? null });
      }),
    );
    return out;
  }

  /** Newest-first order entries of one partition and prefix. */
  protected async listOrder(pk: string, prefix: string, query: OrderQuery): Promise<OrderEntry[]> {
    const offset = query.offset ?? 0;
    const bounded = query.before !== undefined;
    const items = await this.queryAll(
      {
        KeyConditionExpression: bounded ? 'pk = :pk AND sk BETWEEN :lo AND :hi' : 'pk = :pk AND begins_with(sk, :lo)',
        ExpressionAttributeValues: { ':pk': pk, ':lo': prefix, ...(bounded ? { ':hi': `${prefix}${query.before}` } : {}) },
        ...(query.runsOnly ? { FilterExpression: 'attribute_not_exists(fx)' } : {}),
        ProjectionExpression: 'sk',
        ScanIndexForward: false,
        ConsistentRead: this.consistentReads,
      },
      offset + query.limit + (bounded ? 1 : 0),
    );
    // BETWEEN includes its upper bound, which the query excludes.
    const ords = items.map((i) => String(i.sk).slice(prefix.length)).filter((ord) => !bounded || ord < (query.before as string));
    return ords.slice(offset, offset + query.limit).map((ord) => ({ ord, runId: ord.slice(ord.indexOf('|') + 1) }));
  }

  listRunOrder(jobId: string, query: OrderQuery): Promise<OrderEntry[]> {
    return this.listOrder(runOrderKey(this.scope, jobId, '').pk, 'O#', query);
  }

  countRunOrder(jobId: string, runsOnly: boolean): Promise<number> {
    return this.countAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': runOrderKey(this.scope, jobId, '').pk, ':p': 'O#' },
      ...(runsOnly ? { FilterExpression: 'attribute_not_exists(fx)' } : {}),
      ConsistentRead: this.consistentReads,
    });
  }

  listVersionOrder(datasetId: string, query: OrderQuery): Promise<OrderEntry[]> {
    return this.listOrder(versionOrderKey(this.scope, datasetId, '').pk, 'V#', query);
  }

  countVersionOrder(datasetId: string): Promise<number> {
    return this.countAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': versionOrderKey(this.scope, datasetId, '').pk, ':p': 'V#' }, ConsistentRead: this.consistentReads });
  }

  async listChildren(parentRunId: string): Promise<Array<{ runId: string; parentJob: QualifiedName }>> {
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)', ExpressionAttributeValues: { ':pk': childKey(this.scope, parentRunId, '').pk, ':p': 'C#' }, ConsistentRead: this.consistentReads });
    return items.map((i) => ({ runId: String(i.sk).slice(2), parentJob: { namespace: String(i.cns), name: String(i.cnm) } }));
  }

  protected namespaceKey(name: string): Key {
    return { pk: namespacesPk(this.scope), sk: listingSk(name, namespaceIdOf(name)) };
  }

  async getNamespaces(names: readonly string[]): Promise<Map<string, Versioned<NamespaceRecord>>> {
    const items = await this.getItems(names.map((n) => this.namespaceKey(n)));
    const out = new Map<string, Versioned<NamespaceRecord>>();
    for (const name of names) {
      const item = items.get(keyString(this.namespaceKey(name)));
      if (item) out.set(name, { value: { name, createdAt: String(item.ca), updatedAt: String(item.ua) }, rev: Number(item.rev) });
    }
    return out;
  }

  async listNamespaces(page: Page): Promise<{ namespaces: NamespaceRecord[]; total: number }> {
    const condition = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': namespacesPk(this.scope) }, ConsistentRead: this.consistentReads };
    const [items, total] = await Promise.all([this.queryAll(condition, page.offset + page.limit), this.countAll(condition)]);
    return { namespaces: items.slice(page.offset, page.offset + page.limit).map((i) => ({ name: String(i.nm), createdAt: String(i.ca), updatedAt: String(i.ua) })), total };
  }

  protected tagKey(name: string): Key {
    return { pk: tagsPk(this.scope), sk: listingSk(name, tagIdOf(name)) };
  }

  async listTags(page: Page): Promise<{ tags: string[]; total: number }> {
    const condition = { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': tagsPk(this.scope) }, ConsistentRead: this.consistentReads };
    const [items, total] = await Promise.all([this.queryAll({ ...condition, ProjectionExpression: 'nm' }, page.offset + page.limit), this.countAll(condition)]);
    return { tags: items.slice(page.offset, page.offset + page.limit).map((i) => String(i.nm)), total };
  }

  protected async listing(pk: string, page: Page, filter?: string): Promise<IdPage> {
    const condition = {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk, ...(filter ? { ':t': true } : {}) },
      ...(filter ? { FilterExpression: filter } : {}),
      ConsistentRead: this.consistentReads,
    };
    const [items, total] = await Promise.all([this.queryAll({ ...condition, ProjectionExpression: 'sk' }, page.offset + page.limit), this.countAll(condition)]);
    return { ids: items.slice(page.offset, page.offset + page.limit).map((i) => idOfListingSk(String(i.sk))), total };
  }

  listJobs(namespace: string, page: Page): Promise<IdPage> {
    return this.listing(jobListingPk(this.scope, namespaceIdOf(namespace)), page);
  }

  listDatasets(namespace: string, page: Page): Promise<IdPage> {
    return this.listing(datasetListingPk(this.scope, namespaceIdOf(namespace)), page, 'al <> :t');
  }

  searchEntries(): Promise<readonly SearchEntry[]> {
    return this.search.entries(this.scope);
  }
}
