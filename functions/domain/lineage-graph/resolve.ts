/**
 * @module lineage-graph/resolve
 * One dataset, several names: a name whose `symlinks` facet lists a `TABLE` identifier resolves
 * to that identifier (the least one, if several), and the resolved name stands for all of its
 * names. Facts are stored per name as sent; this module joins them when reading, so learning an
 * alias later never rewrites anything. Names resolve in one hop (a target's own symlinks are not
 * followed).
 */
import { datasetIdOf, type QualifiedName } from './ids.ts';
import { canonicalNameOf } from './merge.ts';
import type { LineageModelReader } from './ports.ts';
import type { DatasetLinks } from './records.ts';

/** A dataset as the graph shows it: its resolved name and every name that resolves to it. */
export interface DatasetGroup<L extends DatasetLinks = DatasetLinks> {
  readonly id: string;
  readonly name: QualifiedName;
  /** Links of every name in the group, the resolved name's first when it has an entry. */
  readonly members: readonly L[];
  /** Ids of every name in the group. */
  readonly memberIds: ReadonlySet<string>;
}

/** Per-request cache of names and their groups; loads what it lacks in one batched read per step. */
export class DatasetResolver<L extends DatasetLinks = DatasetLinks> {
  private readonly links = new Map<string, L | null>();
  private readonly groups = new Map<string, DatasetGroup<L>>();

  constructor(private readonly load: (ids: readonly string[]) => Promise<Map<string, L>>) {}

  /** A resolver reading the model's dataset links. */
  static forLinks(model: LineageModelReader): DatasetResolver {
    return new DatasetResolver((ids) => model.getDatasetLinks(ids));
  }

  private async ensure(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.links.has(id));
    if (missing.length === 0) return;
    const found = await this.load(missing);
    for (const id of missing) this.links.set(id, found.get(id) ?? null);
  }

  /** The id of the name a loaded name resolves to. */
  private canonicalIdOf(id: string): string | undefined {
    const links = this.links.get(id);
    return links ? datasetIdOf(canonicalNameOf(links)) : undefined;
  }

  /**
   * The group each name belongs to. Names nothing is known about are absent from the answer.
   * Costs one read for the names, and when some have symlinks, one for their targets and one for
   * the targets' other members.
   */
  async resolve(ids: Iterable<string>): Promise<Map<string, DatasetGroup<L>>> {
    const wanted = [...new Set(ids)];
    await this.ensure(wanted);
    const canonicalIds = new Set(wanted.map((id) => this.canonicalIdOf(id)).filter((id): id is string => id !== undefined));
    await this.ensure(canonicalIds);
    await this.ensure([...canonicalIds].filter((c) => !this.groups.has(c)).flatMap((c) => this.links.get(c)?.members ?? []));
    const out = new Map<string, DatasetGroup<L>>();
    for (const id of wanted) {
      const canonicalId = this.canonicalIdOf(id);
      if (canonicalId === undefined) continue;
      out.set(id, this.groupOf(canonicalId, this.links.get(id) as L));
    }
    return out;
  }

  /** The group of a resolved name; `via` is a member that resolved to it, in case the resolved name's own entry is not written yet. */
  private groupOf(canonicalId: string, via: L): DatasetGroup<L> {
    const known = this.groups.get(canonicalId);
    if (known) return known;
    const head = this.links.get(canonicalId);
    if (!head) return { id: canonicalId, name: canonicalNameOf(via), members: [via], memberIds: new Set([via.datasetId]) };
    const members: L[] = [head];
    for (const memberId of head.members) {
      const member = this.links.get(memberId);
      if (member && memberId !== canonicalId && this.canonicalIdOf(memberId) === canonicalId) members.push(member);
    }
    const name = { namespace: head.namespace, name: head.name };
    const group = { id: canonicalId, name, members, memberIds: new Set(members.map((m) => m.datasetId)) };
    this.groups.set(canonicalId, group);
    return group;
  }
}
