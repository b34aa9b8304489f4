/**
 * @module name-directory
 * Per org, the distinct job names and the distinct job namespaces of its events (folded), kept in
 * a few items of the Events table. A listing filtered by `job` or `namespace` (case-insensitive
 * substrings) looks the matching names up here and reads only their partitions of the job or the
 * namespace index, instead of filtering every index entry of the window
 * (docs/adr/0010-event-keys-sharding-and-listing.md).
 *
 * Names and namespaces are kept apart, not as (namespace, job) pairs: a warehouse runs the same job
 * names in many namespaces, so pairs number in the product of the two and a name filter would
 * match too many of them to read one by one; the names alone stay few.
 *
 * Ingestion records a job's name and namespace before the first event that names them is written,
 * so every stored event's names are in the directory — unless a chunk of it has overflowed, which
 * readers see and then fall back to filtering. Each process remembers the names it has recorded,
 * so steady ingestion of known jobs costs nothing here; readers cache the chunks and re-read only
 * those whose version changed.
 *
 * New names are written by group commit: a chunk has at most one write in flight per process, and
 * names that arrive meanwhile (from concurrent requests) wait and go together in its next write; a
 * name already on its way is not sent again. Concurrent events of a new job (a run's START and
 * COMPLETE, a Spark application's many events) used to write it once each: measured under 16
 * concurrent single-event requests, 2,175 UpdateItems for about 970 new names.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { batchGetAll } from './batch-ops.ts';

/** Items the directory of one org is spread over (a chunk is chosen by a hash of the entry). */
export const DIRECTORY_CHUNKS = 16;
/** Names one chunk holds; past it the chunk is marked overflowed (an item may not exceed 400 KB). */
export const MAX_NAMES_PER_CHUNK = 2_000;
/** Longest entry (a folded name or namespace, UTF-8) the directory stores; a longer one overflows its chunk. */
export const MAX_ENTRY_BYTES = 160;
/** Entries a process remembers having recorded before it starts over (bounds its memory). */
const MAX_REMEMBERED = 200_000;

/** One job as the directory holds it: folded with `foldForSearch`. */
export interface DirectoryJob {
  readonly namespace: string;
  readonly job: string;
}

/** An org's directory as a reader sees it. */
export interface NameDirectoryView {
  /** Every job name of the org's events (folded), unless `complete` is false. */
  readonly jobNames: readonly string[];
  /** Every job namespace of the org's events (folded), unless `complete` is false. */
  readonly namespaces: readonly string[];
  /** False when a chunk overflowed: some names are missing, so a reader must not rely on the lists. */
  readonly complete: boolean;
}

interface CachedChunk {
  readonly version: number;
  readonly overflow: boolean;
  readonly jobNames: readonly string[];
  readonly namespaces: readonly string[];
}

const SEPARATOR = '\u0000';
const CONDITIONAL_CHECK_FAILED = 'ConditionalCheckFailedException';
/** Entries are `j<NUL><job name>` or `n<NUL><namespace>`. */
const JOB_NAME = `j${SEPARATOR}`;
const NAMESPACE = `n${SEPARATOR}`;

const entriesOf = (job: DirectoryJob): string[] => [`${JOB_NAME}${job.job}`, `${NAMESPACE}${job.namespace}`];
const namesOf = (entries: readonly string[], prefix: string): string[] => entries.filter((e) => e.startsWith(prefix)).map((e) => e.slice(prefix.length));
const chunkOf = (entry: string): number => createHash('sha256').update(entry, 'utf8').digest().readUInt32BE(0) % DIRECTORY_CHUNKS;
/** `dir`, not the earlier layout's `names` (pairs): an older home's pair items are left unread. */
const chunkPk = (orgId: string, chunk: number): string => `${orgId}#dir#${chunk}`;

/** The name directory of the Events table. */
export class NameDirectory {
  private readonly remembered = new Set<string>();
  /** Names on their way to the directory (`<org><NUL><entry>`): the write that will hold them. */
  private readonly sending = new Map<string, Promise<void>>();
  /** Per chunk item: the names waiting for its next write, and that write. */
  private readonly nextWrite = new Map<string, { readonly entries: Set<string>; readonly written: Promise<void> }>();
  /** Per chunk item: its latest write, which the next one waits for. */
  private readonly lastWrite = new Map<string, Promise<void>>();
  private readonly cache = new Map<string, CachedChunk>();

  /**
   * @param doc - the document client
   * @param tableName - the Events table (directory items have no index attributes, so no listing index sees them)
   */
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Records the names and namespaces of jobs for an org; resolves once every one of them is durably
   * in the directory (or its chunk is marked overflowed). Store failures propagate: the caller must
   * not write the events.
   */
  async record(orgId: string, jobs: readonly DirectoryJob[]): Promise<void> {
    const writes = new Set<Promise<void>>();
    for (const entry of new Set(jobs.flatMap(entriesOf))) {
      const name = `${orgId}${SEPARATOR}${entry}`;
      if (this.remembered.has(name)) continue;
      let written = this.sending.get(name);
      if (written === undefined) {
        written = this.inNextWrite(orgId, chunkOf(entry), entry);
        this.sending.set(name, written);
        const settled = () => this.sending.delete(name);
        written.then(() => {
          settled();
          if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
          this.remembered.add(name);
        }, settled);
      }
      writes.add(written);
    }
    await Promise.all(writes);
  }

  /**
   * Adds an entry to the next write of its chunk item and returns that write. The write starts once
   * the chunk's previous one has settled (and never in the same tick), so entries of concurrent
   * requests share it.
   */
  private inNextWrite(orgId: string, chunk: number, entry: string): Promise<void> {
    const key = chunkPk(orgId, chunk);
    const open = this.nextWrite.get(key);
    if (open !== undefined) {
      open.entries.add(entry);
      return open.written;
    }
    const entries = new Set([entry]);
    const start = () => {
      this.nextWrite.delete(key);
      return this.add(orgId, chunk, [...entries]);
    };
    const written = (this.lastWrite.get(key) ?? Promise.resolve()).then(start, start);
    this.nextWrite.set(key, { entries, written });
    this.lastWrite.set(key, written);
    const forget = () => {
      if (this.lastWrite.get(key) === written) this.lastWrite.delete(key);
    };
    written.then(forget, forget);
    return written;
  }

  /** The org's directory: versions of every chunk are checked, and only changed chunks read whole. */
  async read(orgId: string): Promise<NameDirectoryView> {
    const keys = Array.from({ length: DIRECTORY_CHUNKS }, (_, chunk) => ({ pk: chunkPk(orgId, chunk) }));
    const heads = await batchGetAll(this.doc, this.tableName, 'pk', keys, ['pk', 'v', 'overflow']);
    const stale = keys.filter(({ pk }) => {
      const head = heads.get(pk);
      const cached = this.cache.get(pk);
      return head !== undefined && (cached === undefined || cached.version !== Number(head.v));
    });
    if (stale.length > 0) {
      const full = await batchGetAll(this.doc, this.tableName, 'pk', stale, ['pk', 'v', 'overflow', 'names']);
      for (const [pk, item] of full) {
        const entries = item.names instanceof Set ? [...(item.names as Set<string>)] : [];
        this.cache.set(pk, { version: Number(item.v), overflow: item.overflow === true, jobNames: namesOf(entries, JOB_NAME), namespaces: namesOf(entries, NAMESPACE) });
      }
    }
    const chunks = keys.flatMap(({ pk }) => (heads.has(pk) ? [this.cache.get(pk)] : [])).filter((c): c is CachedChunk => c !== undefined);
    return { jobNames: chunks.flatMap((c) => c.jobNames), namespaces: chunks.flatMap((c) => c.namespaces), complete: chunks.every((c) => !c.overflow) };
  }

  private async add(orgId: string, chunk: number, entries: readonly string[]): Promise<void> {
    const key = { pk: chunkPk(orgId, chunk) };
    const storable = entries.filter((e) => Buffer.byteLength(e, 'utf8') <= MAX_ENTRY_BYTES);
    if (storable.length > 0) {
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'ADD #names :names, #v :one',
            ConditionExpression: 'attribute_not_exists(#names) OR size(#names) < :max',
            ExpressionAttributeNames: { '#names': 'names', '#v': 'v' },
            ExpressionAttributeValues: { ':names': new Set(storable), ':one': 1, ':max': MAX_NAMES_PER_CHUNK },
          }),
        );
      } catch (err) {
        if ((err as { name?: string }).name !== CONDITIONAL_CHECK_FAILED) throw err;
        return this.markOverflow(key);
      }
    }
    if (storable.length < entries.length) await this.markOverflow(key);
  }

  /** A chunk that cannot take a name says so; readers then stop relying on the directory. */
  private async markOverflow(key: Record<string, string>): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'SET #overflow = :true ADD #v :one',
        ExpressionAttributeNames: { '#overflow': 'overflow', '#v': 'v' },
        ExpressionAttributeValues: { ':true': true, ':one': 1 },
      }),
    );
  }
}
