/**
 * @module integration
 * Names the integration that produced an event, and its version, from the `producer` URI, falling
 * back to the `processing_engine` run facet. Producers in the wild follow a few conventions, each a
 * rule below; anything else is `unknown` rather than a guess.
 */

/** Integration name stored when neither the producer URI nor the run facets name one. */
export const UNKNOWN_INTEGRATION = 'unknown';

/** The derived pair, as stored. */
export interface Integration {
  /** Lower-case integration name (`spark`, `airflow`, `dbt`, `python`), or {@link UNKNOWN_INTEGRATION}. */
  readonly integration: string;
  /** Its version (`1.19.0`), or `''` when not derivable. */
  readonly integration_version: string;
}

/** What a producer URI says; `null` where it says nothing. */
export interface ProducerInfo {
  readonly name: string | null;
  readonly version: string | null;
}

const GIT_HOSTS = new Set(['github.com', 'www.github.com', 'gitlab.com', 'www.gitlab.com', 'bitbucket.org']);

// In the OpenLineage monorepo, the directory under these names is the integration:
// `integration/spark`, `client/python`, `proxy/fluentd`.
const MONOREPO_AREAS = new Set(['integration', 'integrations', 'client', 'proxy']);

// Git refs that are versions: `1.19.0`, `v1-0-0`, `0.3.1rc1`, `1.20.0-SNAPSHOT`, not `main`.
// A leading `v` is dropped, as tag conventions add it and package versions do not.
const VERSION_REF = /^v?(\d+(?:[._-]\d+)*(?:[-+.]?[0-9A-Za-z][0-9A-Za-z.+-]*)?)$/;
// Abbreviated or full commit hashes (`1e5fe1b`) also start with a digit now and then.
const COMMIT_HASH = /^[0-9a-f]{7,40}$/i;

/**
 * Reads a producer URI. Rules, in order:
 * 1. OpenLineage monorepo, `github.com/OpenLineage/OpenLineage/(tree|blob)/<ref>/<area>/<name>`:
 *    name = `<name>` (`spark`, `airflow`, `dbt`, `flink`, `python`, ...), or `<area>` when nothing
 *    follows it (`.../blob/v1-0-0/client` → `client`); version = `<ref>` when it is a version.
 * 2. Airflow's provider package, `github.com/apache/airflow/tree/providers-openlineage/<version>`:
 *    `airflow`, `<version>`.
 * 3. Any other repository on a git host, `<host>/<owner>/<repo>[/(tree|blob)/<ref>/...]`:
 *    name = `<repo>` (`marquez`), version = `<ref>` when it is a version.
 * 4. Anything else: nothing.
 *
 * @example producerInfo('https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark')
 * // { name: 'spark', version: '1.19.0' }
 */
export function producerInfo(producer: string): ProducerInfo {
  const none: ProducerInfo = { name: null, version: null };
  let url: URL;
  try {
    url = new URL(producer);
  } catch {
    return none;
  }
  if (!GIT_HOSTS.has(url.hostname.toLowerCase())) return none;
  const segments = url.pathname.split('/').filter((s) => s !== '').map(decodeSegment);
  const [owner, rawRepo, ...rest] = segments;
  if (owner === undefined || rawRepo === undefined) return none;
  const repo = rawRepo.replace(/\.git$/i, '');
  const { ref, tail } = splitRef(rest);
  const ownerRepo = `${owner}/${repo}`.toLowerCase();

  if (ownerRepo === 'openlineage/openlineage') {
    const [area, name] = tail;
    const component = area !== undefined && MONOREPO_AREAS.has(area.toLowerCase()) && name !== undefined ? name : area;
    return { name: component === undefined ? null : component.toLowerCase(), version: versionOf(ref) };
  }
  if (ownerRepo === 'apache/airflow' && ref !== undefined && ref.toLowerCase().startsWith('providers-')) {
    // The ref holds a slash (`providers-openlineage/1.8.0`), so the version is the next segment.
    return { name: 'airflow', version: versionOf(tail[0]) };
  }
  return { name: repo.toLowerCase(), version: versionOf(ref) };
}

/**
 * The integration of an event: from the producer URI ({@link producerInfo}), else from the
 * `processing_engine` run facet (`name`; version `openlineageAdapterVersion`, else `version`).
 *
 * @param producer - the event's `producer`
 * @param runFacets - the event's `run.facets`, if any
 */
export function deriveIntegration(producer: unknown, runFacets: unknown): Integration {
  const fromUri = typeof producer === 'string' ? producerInfo(producer) : { name: null, version: null };
  const engine = record(record(runFacets)?.processing_engine);
  const engineName = nonEmptyString(engine?.name)?.toLowerCase() ?? null;
  // The adapter version is the OpenLineage integration's own version, the same thing the producer
  // URI carries; `version` is the engine's (Spark 3.5.0), a weaker stand-in.
  const engineVersion = nonEmptyString(engine?.openlineageAdapterVersion) ?? nonEmptyString(engine?.version);
  return {
    integration: fromUri.name ?? engineName ?? UNKNOWN_INTEGRATION,
    integration_version: fromUri.version ?? engineVersion ?? '',
  };
}

/** Splits `tree/<ref>/...`, `blob/<ref>/...`, `-/tree/<ref>/...` (GitLab), `releases/tag/<ref>`. */
function splitRef(rest: readonly string[]): { ref: string | undefined; tail: readonly string[] } {
  let i = rest[0] === '-' ? 1 : 0;
  const kind = rest[i]?.toLowerCase();
  if (kind === 'releases' && rest[i + 1]?.toLowerCase() === 'tag') i += 1;
  else if (kind !== 'tree' && kind !== 'blob' && kind !== 'src') return { ref: undefined, tail: [] };
  return { ref: rest[i + 1], tail: rest.slice(i + 2) };
}

function versionOf(ref: string | undefined): string | null {
  if (ref === undefined || COMMIT_HASH.test(ref)) return null;
  return VERSION_REF.exec(ref)?.[1] ?? null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
