/**
 * @module test/helpers/contract-check
 * Every answer a test receives from a lakeline gateway on loopback is checked against its route's
 * contract (`functions/shared/contracts.ts`, the source the OpenAPI document is generated from):
 * the status is one the document lists for the route, and a JSON body parses with the route's
 * schema for that status and parses back to exactly what was sent — a field the schema does not
 * know, or one it expects and the answer lacks, is drift. A drifted answer makes the `fetch` that
 * received it throw, so the test fails where it called the service.
 *
 * Installed for every test file by `setupFiles` in `vitest.config.ts`; the contracts load on the
 * first request to a route, so files that send none pay nothing.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RouteDefinition } from '#shared/routes';

/** Hosts of the local stacks the suites start (the gateway listens on loopback only). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** An answer that does not match its route's contract. */
export class ContractDriftError extends Error {
  override readonly name = 'ContractDriftError';
}

interface RoutePattern {
  readonly route: RouteDefinition;
  readonly pattern: RegExp;
}

let patterns: Promise<RoutePattern[]> | undefined;

/** `/api/v1/tables/{namespace}/{table}` → a pattern that matches one segment per parameter. */
const patternOf = (path: string): RegExp => new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);

const routePatterns = (): Promise<RoutePattern[]> =>
  (patterns ??= import('#shared/routes').then(({ ROUTES }) => ROUTES.map((route) => ({ route, pattern: patternOf(route.path) }))));

/** The URL and method of a `fetch` call, without touching its body. */
const targetOf = (input: string | URL | Request, init?: RequestInit): { url: URL; method: string } => {
  if (input instanceof Request) return { url: new URL(input.url), method: (init?.method ?? input.method).toUpperCase() };
  return { url: new URL(String(input)), method: (init?.method ?? 'GET').toUpperCase() };
};

/** A short account of where a body and its parse differ (the first few paths). */
const differences = (sent: unknown, parsed: unknown, path = '', found: string[] = []): string[] => {
  if (found.length >= 5 || isDeepStrictEqual(sent, parsed)) return found;
  if (sent && parsed && typeof sent === 'object' && typeof parsed === 'object' && Array.isArray(sent) === Array.isArray(parsed)) {
    const keys = new Set([...Object.keys(sent), ...Object.keys(parsed)]);
    for (const key of keys) {
      const a = (sent as Record<string, unknown>)[key];
      const b = (parsed as Record<string, unknown>)[key];
      if (!(key in sent)) found.push(`${path}/${key}: missing from the answer (the schema gives ${JSON.stringify(b)})`);
      else if (!(key in parsed)) found.push(`${path}/${key}: not in the schema`);
      else differences(a, b, `${path}/${key}`, found);
    }
    return found;
  }
  found.push(`${path || '/'}: answered ${JSON.stringify(sent)?.slice(0, 80)}, the schema reads ${JSON.stringify(parsed)?.slice(0, 80)}`);
  return found;
};

/** What is wrong with an answer of a route, or undefined when it keeps the contract. */
export const driftOf = async (route: RouteDefinition, status: number, contentType: string, text: string): Promise<string | undefined> => {
  const { CONTRACTS, bodySchemaOf, statusesOf } = await import('#shared/contracts');
  const contract = CONTRACTS[route.id];
  const statuses = statusesOf(route, contract);
  if (!statuses.includes(status)) return `status ${status} is not one the contract lists (${statuses.join(', ')})`;
  if (!contentType.includes('json') || text === '') return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `the body is not JSON although its content type says so: ${text.slice(0, 80)}`;
  }
  const parsed = bodySchemaOf(route, contract, status).safeParse(body);
  if (!parsed.success) {
    return `the body does not match the ${status} schema: ${parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '/'}: ${issue.message}`)
      .join('; ')}`;
  }
  const found = differences(body, parsed.data);
  return found.length > 0 ? `the body and its schema differ: ${found.join('; ')}` : undefined;
};

const fetchOriginal = globalThis.fetch;

/**
 * Gives back the plain `fetch`, for a suite whose gateway serves stand-in handlers rather than
 * lakeline's (the local gateway's own unit tests): their answers keep no route's contract.
 */
export const withoutContractCheck = (): void => {
  globalThis.fetch = fetchOriginal;
};

/** Replaces `fetch` with one that checks every answer from a local gateway against its route. */
export const installContractCheck = (): void => {
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetchOriginal(input, init);
    const { url, method } = targetOf(input, init);
    if (!LOOPBACK_HOSTS.has(url.hostname)) return response;
    const match = (await routePatterns()).find(({ route, pattern }) => route.method === method && pattern.test(url.pathname));
    if (!match) return response;
    const problem = await driftOf(match.route, response.status, response.headers.get('content-type') ?? '', await response.clone().text());
    if (problem) throw new ContractDriftError(`${method} ${url.pathname} answered ${response.status}, which drifts from its contract: ${problem}`);
    return response;
  };
};

installContractCheck();
