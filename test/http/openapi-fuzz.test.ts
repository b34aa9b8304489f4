/**
 * The API against its own OpenAPI document, fuzzed: schemathesis (pinned in requirements-fuzz.lock,
 * `.lakeline/venv-fuzz`) generates requests from `/openapi.json` — valid ones, boundary values
 * and invalid ones — and sends them to the shared local stack as an org on the free plan without a
 * payment method (metered engines answer 402 and the legacy endpoint 403 before any compute, so the
 * run stays cheap and bounded). It fails on any 5xx, any status the document does not list for
 * the operation, any response whose body, headers or content type the document does not describe,
 * and any method a path does not serve that is not answered 405.
 *
 * It also fails when the document and the validators disagree: a request the document calls
 * valid that is refused as invalid (400), or one it calls invalid that is accepted. Rules across
 * body fields are stated in the document as JSON Schema (`oneOf`, `not`); an empty event window
 * (`end` at or before `start`) is an empty page, not an error.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';
import { freshOrg } from './warehouse-api.ts';

const SCHEMATHESIS = path.join(REPO_ROOT, '.lakeline', 'venv-fuzz', 'bin', 'schemathesis');
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
  'unsupported_method',
  // The document and the validators agree: what it calls valid is accepted, what it calls invalid is refused.
  'positive_data_acceptance',
  'negative_data_rejection',
];
/**
 * Statuses that do not call a valid request invalid (schemathesis' defaults, plus 402: the plan's
 * answer before any compute, and 431: the gateway's limit on the request line and headers
 * together, 10,240 bytes, which no OpenAPI keyword can state — a long value in multi-byte
 * characters, percent-encoded, passes it while within its own `maxLength`).
 */
const ACCEPTED = ['2xx', '401', '402', '403', '404', '409', '431', '5xx'];
/** Operations whose bodies carry SQL or a polars script (see the config below). */
const SQL_OPERATIONS = ['PostQuery', 'PostWarehouseQuery', 'PostWarehousePolars', 'PostSparkQuery'];
/** Statuses that refuse an invalid request (schemathesis' defaults, plus 413 and 431: a body or a request head above its size limit). */
const REFUSED = ['400', '401', '403', '404', '405', '406', '409', '413', '415', '422', '428', '429', '431', '5xx'];
/** Test cases per operation and phase: enough for the boundary and invalid cases, a few minutes in all. */
const MAX_EXAMPLES = 25;

const run = (args: readonly string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(SCHEMATHESIS, args, { cwd: process.env.TMPDIR ?? '/tmp', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });

describe('the API fuzzed against its OpenAPI document', () => {
  it('Should answer every generated request within the document: no 5xx, no undocumented status or body, 405 for other methods', async () => {
    // Prepare
    expect(existsSync(SCHEMATHESIS), `${SCHEMATHESIS} is missing: run node scripts/setup.mjs`).toBe(true);
    const { token } = await freshOrg('Fuzzed', { plan: 'free', paymentMethod: false });
    const { baseUrl } = inject('stack');
    const configFile = path.join(mkdtempSync(path.join(tmpdir(), 'lakeline-fuzz-')), 'schemathesis.toml');
    writeFileSync(
      configFile,
      [
        // The checks are named here, not with --checks: a check named on the command line cannot
        // be turned off for one operation.
        '[checks]',
        'enabled = false',
        ...CHECKS.map((check) => `${check}.enabled = true`),
        `positive_data_acceptance.expected-statuses = ${JSON.stringify(ACCEPTED)}`,
        `negative_data_rejection.expected-statuses = ${JSON.stringify(REFUSED)}`,
        // SQL and polars scripts are languages, not JSON shapes: the document can say a query is a
        // non-empty string of bounded length, not that "0" is no statement. Generated bodies of
        // these operations are still sent and must be answered within the document, and bodies
        // the document calls invalid must still be refused.
        '[[operations]]',
        `include-operation-id-regex = "^(${SQL_OPERATIONS.join('|')})$"`,
        'checks.positive_data_acceptance.enabled = false',
        // A destination's URL is accepted by where its host resolves (public addresses only, ADR
        // 0054), which no JSON Schema can say: a generated URL the document allows is mostly one
        // that does not resolve. Its answers must still be within the document.
        '[[operations]]',
        'include-operation-id-regex = "^CreateWebhook$"',
        'checks.positive_data_acceptance.enabled = false',
        '',
      ].join('\n'),
    );
    // Act
    const { code, output } = await run(
      [
        '--config-file',
        configFile,
        'run',
        `${baseUrl}/openapi.json`,
        '--header',
        `Authorization: Bearer ${token}`,
        '--phases',
        'examples,coverage,fuzzing',
        '--max-examples',
        String(MAX_EXAMPLES),
        // One worker: hypothesis parses lambdas' source with `ast` to describe strategies, and on
        // CPython 3.11 before 3.11.8 two threads doing so at once corrupt the ast module's shared
        // recursion counter (gh-106905): a fuzzer "Runtime Error" in some runs, not an API finding.
        '--workers',
        '1',
        '--seed',
        '20261125',
        '--generation-database',
        'none',
        '--request-timeout',
        '60',
        '--no-color',
      ],
      { SCHEMATHESIS_HOOKS: '', NO_COLOR: '1' },
    );
    // Assess: the whole report is printed when anything failed; the counts always.
    console.log(output.match(/Test cases:\s*\n?\s*[^\n]+/)?.[0].replace(/\s+/g, ' ') ?? 'no summary');
    expect(code, output).toBe(0);
  }, 15 * 60_000);
});
