/**
 * @module lineage-graph/resolve-node-id
 * Picks, among the readings of a node id (`nodeIdReadings`), the one that names something stored.
 * `dataset:file:/tmp/warehouse:default.orders` reads as namespace `file` and as namespace
 * `file:/tmp/warehouse`; no pattern can tell which is meant (Marquez's guesses the first and fails),
 * so what exists decides (ADR 0043). Marquez's guess is tried first, as the endpoint's own read (no
 * read added when it names something, as for nearly every id); the others are read together, in
 * one batch, only when it names nothing.
 */
import { NotFoundError } from '../errors.ts';
import { datasetIdOf, jobIdOf, type NodeId } from './ids.ts';
import type { LineageModelReader } from './ports.ts';

const existing = async (model: LineageModelReader, readings: readonly NodeId[]): Promise<Set<NodeId>> => {
  const jobs = readings.filter((r) => r.type === 'JOB');
  // A dataset reading exists when its name has a record or is another's symlink target; a field
  // reading when its dataset does (two field readings never share a dataset: the field is the rest).
  const datasets = readings.filter((r) => r.type !== 'JOB');
  const [heads, links] = await Promise.all([
    jobs.length === 0 ? new Map() : model.getJobHeads(jobs.map((r) => jobIdOf(r))),
    datasets.length === 0 ? new Map() : model.getDatasetLinks(datasets.map((r) => datasetIdOf(r))),
  ]);
  return new Set(readings.filter((r) => (r.type === 'JOB' ? heads.has(jobIdOf(r)) : links.has(datasetIdOf(r)))));
};

/**
 * The first reading that names a stored job or dataset; the first reading (Marquez's guess) when
 * none does, so the endpoint answers for it as it would for any unknown node.
 * @param first - Marquez's guess
 * @param others - the other readings, in order
 */
export async function resolveNodeId(model: LineageModelReader, first: NodeId, others: readonly NodeId[] | undefined): Promise<NodeId> {
  if (others === undefined || others.length === 0) return first;
  if ((await existing(model, [first])).size > 0) return first;
  const found = await existing(model, others);
  return others.find((r) => found.has(r)) ?? first;
}

/**
 * Answers for Marquez's guess; when that is a 404 and another reading names a stored job or
 * dataset, answers for the first such reading instead. The common case costs no read more.
 * @param answer - the endpoint's answer for one reading (throws NotFoundError for an unknown node)
 */
export async function answerForReadings<T>(model: LineageModelReader, first: NodeId, others: readonly NodeId[] | undefined, answer: (nodeId: NodeId) => Promise<T>): Promise<T> {
  try {
    return await answer(first);
  } catch (error) {
    if (!(error instanceof NotFoundError) || others === undefined || others.length === 0) throw error;
    const found = await existing(model, others);
    const next = others.find((r) => found.has(r));
    if (next === undefined) throw error;
    return answer(next);
  }
}
