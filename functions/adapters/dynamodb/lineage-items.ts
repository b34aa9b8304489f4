/**
 * @module lineage-items
 * The items of the lineage model table (LINEAGE_TABLE): their keys, and how record bodies are
 * packed within DynamoDB's 400 KB item limit.
 *
 * Every key starts with `<org>#<generation>` (written `P` below), so one org never reads another's
 * items and a rebuild fills a fresh generation beside the current one.
 *
 * | item | pk | sk | written by | read by |
 * |---|---|---|---|---|
 * | generation pointer | `<org>#META` | `GEN` | rebuild (CAS) | every request (cached 1 s), consumers |
 * | run | `P#R#<runId>` | `RUN` | consumer (CAS) | run graph, lineage run, versions, heads |
 * | child of a run | `P#R#<parentRunId>` | `C#<childRunId>` | consumer | lineage run |
 * | job head | `P#J#<jobId>` | `HEAD` | consumer (CAS) | graph (links part), job, search |
 * | run order | `P#J#<jobId>` | `O#<t0>|<runId>` | consumer | head recomputation, asOf, job runs |
 * | dataset name | `P#D#<datasetId>` | `DS` | consumer (CAS body; ADD to sets) | graph, column lineage, dataset |
 * | set overflow | `P#D#<datasetId>` | `X#<set>#<shard>` | consumer (ADD) | as the dataset name, when flagged |
 * | column-lineage value | `P#D#<datasetId>` | `CL#<sha256 of the value>` | consumer, when a new value wins | column lineage, dataset |
 * | version order | `P#D#<datasetId>` | `V#<t0>|<runId>` | consumer | versions, versions a run read |
 * | namespace | `P#NS` | `<name>\u0001<nsId>` | consumer (CAS) | namespaces |
 * | job listing | `P#NSJ#<nsId>` | `<name>\u0001<jobId>` | consumer | jobs of a namespace |
 * | dataset listing | `P#NSD#<nsId>` | `<name>\u0001<datasetId>` | consumer | datasets of a namespace |
 * | blob chunk | `P#B#<sha256>` | `<index>` | consumer (before the item naming it) | unpacking a large body |
 * | change entry | `P#CHG` | `<ISO time>#<uuid>` | consumer, once per batch (after its writes; TTL 1 day) | readers' record caches |
 *
 * Names in sort keys are cut to {@link NAME_KEY_BYTES} bytes (DynamoDB allows 1,024); ids make
 * them unique, and a cut name still sorts by its first 600 bytes.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';

/** The generation pointer's key. */
export const metaKey = (orgId: string) => ({ pk: `${orgId}#META`, sk: 'GEN' });

/** The key prefix of one org's generation. */
export const scopeOf = (orgId: string, generation: number): string => `${orgId}#${generation}`;

export const runKey = (scope: string, runId: string) => ({ pk: `${scope}#R#${runId}`, sk: 'RUN' });
export const childKey = (scope: string, parentRunId: string, childRunId: string) => ({ pk: `${scope}#R#${parentRunId}`, sk: `C#${childRunId}` });
export const headKey = (scope: string, jobId: string) => ({ pk: `${scope}#J#${jobId}`, sk: 'HEAD' });
export const runOrderKey = (scope: string, jobId: string, ord: string) => ({ pk: `${scope}#J#${jobId}`, sk: `O#${ord}` });
export const datasetKey = (scope: string, datasetId: string) => ({ pk: `${scope}#D#${datasetId}`, sk: 'DS' });
export const overflowKey = (scope: string, datasetId: string, set: string, shard: number) => ({ pk: `${scope}#D#${datasetId}`, sk: `X#${set}#${String(shard).padStart(2, '0')}` });
export const versionOrderKey = (scope: string, datasetId: string, ord: string) => ({ pk: `${scope}#D#${datasetId}`, sk: `V#${ord}` });
/**
 * A `columnLineage` facet value, stored apart from its dataset item and addressed by its content:
 * graphs never read it (DynamoDB reads, and bills, whole items whatever the projection), and a run
 * that writes the same lineage again only moves the register's key in the dataset item.
 */
export const columnLineageKey = (scope: string, datasetId: string, hash: string) => ({ pk: `${scope}#D#${datasetId}`, sk: `CL#${hash}` });
export const namespacesPk = (scope: string): string => `${scope}#NS`;
export const tagsPk = (scope: string): string => `${scope}#TAG`;
export const jobListingPk = (scope: string, namespaceId: string): string => `${scope}#NSJ#${namespaceId}`;
export const datasetListingPk = (scope: string, namespaceId: string): string => `${scope}#NSD#${namespaceId}`;
export const blobPk = (scope: string, sha: string): string => `${scope}#B#${sha}`;
/** The change log readers' record caches follow (one entry per consumer batch, sorted by time; see `lineage-record-cache.ts`). */
export const changeLogPk = (scope: string): string => `${scope}#CHG`;
/** The search index partition of an entity (4 shards per org generation). */
export const searchPk = (scope: string, id: string): string => `${scope}#S#${Number.parseInt(id.slice(0, 2), 16) % SEARCH_SHARDS}`;

/** Shards of the search index, per org generation (each takes ~1,000 writes/s in AWS). */
export const SEARCH_SHARDS = 4;
/** Bytes of a name kept in a sort key. */
export const NAME_KEY_BYTES = 600;

/** A name cut to {@link NAME_KEY_BYTES} UTF-8 bytes (at a character boundary), for sort keys. */
export const nameKey = (name: string): string => {
  if (Buffer.byteLength(name) <= NAME_KEY_BYTES) return name;
  let out = '';
  let bytes = 0;
  for (const ch of name) {
    bytes += Buffer.byteLength(ch);
    if (bytes > NAME_KEY_BYTES) break;
    out += ch;
  }
  return out;
};

/** A listing sort key: the name, then the id (U+0001 sorts below every character a name may hold after it). */
export const listingSk = (name: string, id: string): string => `${nameKey(name)}\u0001${id}`;

/** The id at the end of a listing sort key. */
export const idOfListingSk = (sk: string): string => sk.slice(sk.lastIndexOf('\u0001') + 1);

/** Bodies below this many bytes of JSON are stored as text; larger ones gzipped. */
export const GZIP_FROM_BYTES = 2_048;
/** Chunk size of a body too large for its item. */
export const BLOB_CHUNK_BYTES = 300 * 1024;

/** The attributes a packed body takes: `<p>j` (JSON text), `<p>z` (gzip) or `<p>b` (`<sha256>:<chunks>` of blob chunks). */
export type PackedAttributes = Record<string, string | Uint8Array>;

/** A blob chunk item to write before the item that names it. */
export interface BlobChunk {
  readonly pk: string;
  readonly sk: string;
  readonly d: Uint8Array;
}

/**
 * Packs a value into the attributes `<prefix>j` / `<prefix>z` / `<prefix>b`. A body whose gzip is
 * above `maxInlineBytes` is split into content-addressed chunk items (returned, to be written
 * first): concurrent writers of the same body write the same chunks, and a rebuild drops them with
 * the generation.
 */
export function pack(scope: string, prefix: string, value: unknown, maxInlineBytes: number): { attributes: PackedAttributes; chunks: BlobChunk[] } {
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json) < GZIP_FROM_BYTES) return { attributes: { [`${prefix}j`]: json }, chunks: [] };
  const gz = gzipSync(json, { level: 1 });
  if (gz.length <= maxInlineBytes) return { attributes: { [`${prefix}z`]: gz }, chunks: [] };
  const sha = createHash('sha256').update(gz).digest('hex');
  const chunks: BlobChunk[] = [];
  for (let i = 0, n = 0; i < gz.length; i += BLOB_CHUNK_BYTES, n++) chunks.push({ pk: blobPk(scope, sha), sk: String(n).padStart(5, '0'), d: gz.subarray(i, i + BLOB_CHUNK_BYTES) });
  return { attributes: { [`${prefix}b`]: `${sha}:${chunks.length}` }, chunks };
}

/** The attribute names a packed body may use. */
export const packedNames = (prefix: string): string[] => [`${prefix}j`, `${prefix}z`, `${prefix}b`];

/** Reads blob chunks by pk, in order. */
export type ChunkLoader = (pk: string) => Promise<Uint8Array[]>;

/** Unpacks what {@link pack} wrote; `undefined` when the item has none of the attributes. */
export async function unpack<T>(scope: string, item: Record<string, unknown>, prefix: string, loadChunks: ChunkLoader): Promise<T | undefined> {
  const text = item[`${prefix}j`];
  if (typeof text === 'string') return JSON.parse(text) as T;
  const gz = item[`${prefix}z`];
  if (gz instanceof Uint8Array) return JSON.parse(gunzipSync(gz).toString('utf8')) as T;
  const ref = item[`${prefix}b`];
  if (typeof ref !== 'string') return undefined;
  const [sha, count] = ref.split(':') as [string, string];
  const parts = await loadChunks(blobPk(scope, sha));
  if (parts.length !== Number(count)) throw new Error(`lineage model: blob ${sha} has ${parts.length} of ${count} chunks`);
  return JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8')) as T;
}
