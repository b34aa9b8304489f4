/**
 * @module memory-lineage-store
 * An in-memory LineageModelStore for the lineage-graph domain tests: the port's contract
 * (compare-and-set on revisions, grow-only sets, order entries newest first, generations for
 * rebuilds) in Maps, every value copied in and out so that tests cannot alias the store's state.
 * Each call yields to the event loop first, so concurrent use cases interleave as they would
 * against a real store. The DynamoDB adapter is tested against dynalite, not against this.
 */
import { datasetIdOf, type QualifiedName } from '#domain/lineage-graph/ids';
import { canonicalNameOf } from '#domain/lineage-graph/merge';
import type { DatasetSetAdd, IdPage, IndexEntry, LineageModel, LineageModelStore, OrderQuery, Page, Versioned } from '#domain/lineage-graph/ports';
import type {
  DatasetColumnLineage,
  DatasetLinks,
  DatasetNode,
  DatasetRecord,
  JobHeadLinks,
  JobHeadRecord,
  NamespaceRecord,
  OrderEntry,
  RunRecord,
  SearchEntry,
} from '#domain/lineage-graph/records';

const copy = <T>(value: T): T => structuredClone(value);
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Stored<T> {
  value: T;
  rev: number;
}

interface LinkSets extends QualifiedName {
  writers: Set<string>;
  readers: Set<string>;
  clDown: Set<string>;
  members: Set<string>;
}

/** Calls made to a model, by method name. */
export type ModelCalls = Record<string, number>;

/** One organization's model in one generation, in Maps. */
export class MemoryLineageModel implements LineageModel {
  readonly runs = new Map<string, Stored<RunRecord>>();
  readonly heads = new Map<string, Stored<JobHeadRecord>>();
  readonly datasets = new Map<string, Stored<DatasetRecord>>();
  readonly sets = new Map<string, LinkSets>();
  readonly runOrder = new Map<string, Set<string>>();
  readonly staticOrds = new Set<string>();
  readonly versionOrder = new Map<string, Set<string>>();
  readonly children = new Map<string, Map<string, QualifiedName>>();
  readonly namespaces = new Map<string, Stored<NamespaceRecord>>();
  readonly tags = new Set<string>();
  readonly jobListings = new Map<string, Map<string, string>>();
  readonly datasetListings = new Map<string, Map<string, { id: string; aliased: boolean }>>();
  readonly calls: ModelCalls = {};

  private async enter(method: string): Promise<void> {
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    await tick();
  }

  private static getMany<T>(map: Map<string, Stored<T>>, ids: readonly string[]): Map<string, Versioned<T>> {
    const out = new Map<string, Versioned<T>>();
    for (const id of ids) {
      const stored = map.get(id);
      if (stored) out.set(id, { value: copy(stored.value), rev: stored.rev });
    }
    return out;
  }

  private static cas<T>(map: Map<string, Stored<T>>, id: string, value: T, expectedRev: number | null): number | null {
    const stored = map.get(id);
    if ((stored?.rev ?? null) !== expectedRev) return null;
    const rev = (stored?.rev ?? 0) + 1;
    map.set(id, { value: copy(value), rev });
    return rev;
  }

  async getRuns(runIds: readonly string[]) {
    await this.enter('getRuns');
    return MemoryLineageModel.getMany(this.runs, runIds);
  }

  async putRun(run: RunRecord, expectedRev: number | null) {
    await this.enter('putRun');
    return MemoryLineageModel.cas(this.runs, run.runId, run, expectedRev);
  }

  async getJobHeads(jobIds: readonly string[]) {
    await this.enter('getJobHeads');
    return MemoryLineageModel.getMany(this.heads, jobIds);
  }

  async getJobLinks(jobIds: readonly string[]) {
    await this.enter('getJobLinks');
    const out = new Map<string, JobHeadLinks>();
    for (const id of jobIds) {
      const head = this.heads.get(id)?.value;
      if (head) out.set(id, copy({ jobId: head.jobId, namespace: head.namespace, name: head.name, current: head.current, inputs: head.inputs, outputs: head.outputs, updatedAt: head.updatedAt }));
    }
    return out;
  }

  async putJobHead(head: JobHeadRecord, expectedRev: number | null) {
    await this.enter('putJobHead');
    return MemoryLineageModel.cas(this.heads, head.jobId, head, expectedRev);
  }

  async getDatasets(datasetIds: readonly string[]) {
    await this.enter('getDatasets');
    return MemoryLineageModel.getMany(this.datasets, datasetIds);
  }

  async putDataset(record: DatasetRecord, expectedRev: number | null, setAdds: readonly DatasetSetAdd[] = []) {
    await this.enter('putDataset');
    const rev = MemoryLineageModel.cas(this.datasets, record.datasetId, record, expectedRev);
    if (rev !== null) this.addToSets(setAdds);
    return rev;
  }

  private linksOf(id: string): DatasetLinks | undefined {
    const record = this.datasets.get(id)?.value;
    const sets = this.sets.get(id);
    if (!record && !sets) return undefined;
    const name = record ?? (sets as LinkSets);
    const sorted = (s: Set<string> | undefined) => [...(s ?? [])].sort();
    return copy({
      datasetId: id,
      namespace: name.namespace,
      name: name.name,
      exists: record !== undefined,
      symlinkTargets: record?.symlinkTargets ?? [],
      writers: sorted(sets?.writers),
      readers: sorted(sets?.readers),
      clDown: sorted(sets?.clDown),
      members: sorted(sets?.members),
    });
  }

  async getDatasetLinks(datasetIds: readonly string[]) {
    await this.enter('getDatasetLinks');
    const out = new Map<string, DatasetLinks>();
    for (const id of datasetIds) {
      const links = this.linksOf(id);
      if (links) out.set(id, links);
    }
    return out;
  }

  async getDatasetNodes(datasetIds: readonly string[]) {
    await this.enter('getDatasetNodes');
    const out = new Map<string, DatasetNode>();
    for (const id of datasetIds) {
      const links = this.linksOf(id);
      if (!links) continue;
      const record = this.datasets.get(id)?.value;
      const { columnLineage: _cl, ...facets } = record?.facets ?? {};
      out.set(id, { ...links, record: record ? copy({ ...record, facets }) : null });
    }
    return out;
  }

  async getDatasetColumnLineage(datasetIds: readonly string[]) {
    await this.enter('getDatasetColumnLineage');
    const out = new Map<string, DatasetColumnLineage>();
    for (const id of datasetIds) {
      const links = this.linksOf(id);
      if (!links) continue;
      const facets = this.datasets.get(id)?.value.facets ?? {};
      out.set(id, { ...links, columnLineage: copy(facets.columnLineage ?? null), schema: copy(facets.schema ?? null) });
    }
    return out;
  }

  async addToDatasetSets(adds: readonly DatasetSetAdd[]) {
    await this.enter('addToDatasetSets');
    this.addToSets(adds);
  }

  private addToSets(adds: readonly DatasetSetAdd[]): void {
    for (const add of adds) {
      const sets = this.sets.get(add.datasetId) ?? { namespace: add.namespace, name: add.name, writers: new Set(), readers: new Set(), clDown: new Set(), members: new Set() };
      for (const m of add.members) sets[add.set].add(m);
      this.sets.set(add.datasetId, sets);
    }
  }

  private entryStore(entry: IndexEntry): { has(): boolean; put(): void; delete(): void } {
    if (entry.kind === 'child') {
      const kids = this.children.get(entry.parentRunId) ?? new Map<string, QualifiedName>();
      return {
        has: () => kids.has(entry.childRunId),
        put: () => this.children.set(entry.parentRunId, kids.set(entry.childRunId, copy(entry.parentJob))),
        delete: () => kids.delete(entry.childRunId),
      };
    }
    const [map, key] = entry.kind === 'run-order' ? [this.runOrder, entry.jobId] : [this.versionOrder, entry.datasetId];
    const set = map.get(key) ?? new Set<string>();
    const isStatic = entry.kind === 'run-order' && entry.static === true;
    return {
      has: () => set.has(entry.ord),
      put: () => {
        map.set(key, set.add(entry.ord));
        if (isStatic) this.staticOrds.add(entry.ord);
      },
      delete: () => set.delete(entry.ord),
    };
  }

  async findMissingEntries(entries: readonly IndexEntry[]) {
    await this.enter('findMissingEntries');
    return entries.filter((e) => !this.entryStore(e).has());
  }

  async putEntries(entries: readonly IndexEntry[]) {
    await this.enter('putEntries');
    for (const e of entries) this.entryStore(e).put();
  }

  async deleteEntries(entries: readonly IndexEntry[]) {
    await this.enter('deleteEntries');
    for (const e of entries) this.entryStore(e).delete();
  }

  private ordered(set: Set<string> | undefined, query: OrderQuery): OrderEntry[] {
    const ords = [...(set ?? [])]
      .filter((o) => (query.before === undefined || o < query.before) && !(query.runsOnly && this.staticOrds.has(o)))
      .sort()
      .reverse();
    return ords.slice(query.offset ?? 0, (query.offset ?? 0) + query.limit).map((ord) => ({ ord, runId: ord.slice(ord.indexOf('|') + 1) }));
  }

  async listRunOrder(jobId: string, query: OrderQuery) {
    await this.enter('listRunOrder');
    return this.ordered(this.runOrder.get(jobId), query);
  }

  async countRunOrder(jobId: string, runsOnly: boolean) {
    await this.enter('countRunOrder');
    return [...(this.runOrder.get(jobId) ?? [])].filter((o) => !(runsOnly && this.staticOrds.has(o))).length;
  }

  async listVersionOrder(datasetId: string, query: OrderQuery) {
    await this.enter('listVersionOrder');
    return this.ordered(this.versionOrder.get(datasetId), query);
  }

  async countVersionOrder(datasetId: string) {
    await this.enter('countVersionOrder');
    return this.versionOrder.get(datasetId)?.size ?? 0;
  }

  async listChildren(parentRunId: string) {
    await this.enter('listChildren');
    return [...(this.children.get(parentRunId) ?? new Map<string, QualifiedName>())].sort(([a], [b]) => (a < b ? -1 : 1)).map(([runId, parentJob]) => ({ runId, parentJob: copy(parentJob) }));
  }

  async getNamespaces(names: readonly string[]) {
    await this.enter('getNamespaces');
    return MemoryLineageModel.getMany(this.namespaces, names);
  }

  async putNamespace(record: NamespaceRecord, expectedRev: number | null) {
    await this.enter('putNamespace');
    return MemoryLineageModel.cas(this.namespaces, record.name, record, expectedRev);
  }

  async listNamespaces(page: Page) {
    await this.enter('listNamespaces');
    const all = [...this.namespaces.values()].map((s) => copy(s.value)).sort((a, b) => (a.name < b.name ? -1 : 1));
    return { namespaces: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }

  async getTags(names: readonly string[]) {
    await this.enter('getTags');
    return new Set(names.filter((n) => this.tags.has(n)));
  }

  async putTags(names: readonly string[]) {
    await this.enter('putTags');
    for (const name of names) this.tags.add(name);
  }

  async listTags(page: Page) {
    await this.enter('listTags');
    // Code-unit order, as DynamoDB sorts the keys.
    const all = [...this.tags].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { tags: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }

  async putJobListings(jobs: readonly (QualifiedName & { jobId: string })[]) {
    await this.enter('putJobListings');
    for (const job of jobs) {
      const listing = this.jobListings.get(job.namespace) ?? new Map<string, string>();
      this.jobListings.set(job.namespace, listing.set(`${job.name}\u0000${job.jobId}`, job.jobId));
    }
  }

  async putDatasetListing(dataset: QualifiedName & { datasetId: string; aliased: boolean }) {
    await this.enter('putDatasetListing');
    const listing = this.datasetListings.get(dataset.namespace) ?? new Map<string, { id: string; aliased: boolean }>();
    const key = `${dataset.name}\u0000${dataset.datasetId}`;
    listing.set(key, { id: dataset.datasetId, aliased: (listing.get(key)?.aliased ?? false) || dataset.aliased });
    this.datasetListings.set(dataset.namespace, listing);
  }

  private static page(keys: Map<string, string>, page: Page): IdPage {
    const sorted = [...keys].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, id]) => id);
    return { ids: sorted.slice(page.offset, page.offset + page.limit), total: sorted.length };
  }

  async listJobs(namespace: string, page: Page) {
    await this.enter('listJobs');
    return MemoryLineageModel.page(this.jobListings.get(namespace) ?? new Map(), page);
  }

  async listDatasets(namespace: string, page: Page) {
    await this.enter('listDatasets');
    const visible = new Map([...(this.datasetListings.get(namespace) ?? new Map<string, { id: string; aliased: boolean }>())].filter(([, v]) => !v.aliased).map(([k, v]) => [k, v.id] as const));
    return MemoryLineageModel.page(visible, page);
  }

  async publishChanges(): Promise<void> {
    // Nothing caches this model's records.
  }

  async searchEntries() {
    await this.enter('searchEntries');
    const minute = (t: string) => (t === '' ? '' : `${t.slice(0, 16)}:00.000000+00:00`);
    const entries: SearchEntry[] = [...this.heads.values()].map(({ value: h }) => ({ type: 'JOB', id: h.jobId, namespace: h.namespace, name: h.name, updatedAtMinute: minute(h.updatedAt) }));
    const ids = new Set([...this.datasets.keys(), ...this.sets.keys()]);
    for (const id of ids) {
      const links = this.linksOf(id) as DatasetLinks;
      const canonical = canonicalNameOf(links);
      const aliased = datasetIdOf(canonical) !== id;
      entries.push({
        type: 'DATASET',
        id,
        namespace: links.namespace,
        name: links.name,
        updatedAtMinute: minute(this.datasets.get(id)?.value.updatedAt || this.datasets.get(id)?.value.createdAt || ''),
        ...(aliased ? { canonical } : {}),
      });
    }
    return entries;
  }
}

/** {@link LineageModelStore} over {@link MemoryLineageModel}s, with generations for rebuilds. */
export class MemoryLineageStore implements LineageModelStore {
  private readonly orgs = new Map<string, { current: number; building?: number; models: Map<number, MemoryLineageModel> }>();

  private org(orgId: string) {
    let org = this.orgs.get(orgId);
    if (!org) {
      org = { current: 1, models: new Map([[1, new MemoryLineageModel()]]) };
      this.orgs.set(orgId, org);
    }
    return org;
  }

  /** The generation readers see (for assertions). */
  current(orgId: string): MemoryLineageModel {
    const org = this.org(orgId);
    return org.models.get(org.current) as MemoryLineageModel;
  }

  async model(orgId: string): Promise<LineageModel> {
    await tick();
    return this.current(orgId);
  }

  async modelsToWrite(orgId: string): Promise<LineageModel[]> {
    await tick();
    const org = this.org(orgId);
    return [org.current, ...(org.building === undefined ? [] : [org.building])].map((g) => org.models.get(g) as MemoryLineageModel);
  }

  async beginRebuild(orgId: string) {
    await tick();
    const org = this.org(orgId);
    const generation = Math.max(...org.models.keys()) + 1;
    const model = new MemoryLineageModel();
    org.models.set(generation, model);
    org.building = generation;
    return { generation, model };
  }

  async commitRebuild(orgId: string, generation: number) {
    await tick();
    const org = this.org(orgId);
    if (org.building !== generation) throw new Error(`generation ${generation} is not being rebuilt`);
    org.models.delete(org.current);
    org.current = generation;
    delete org.building;
  }
}
