/**
 * The API against its own OpenAPI document, fuzzed: schemathesis (pinned in requirements-fuzz.lock,
 * `.lakeline/venv-fuzz`) generates requests from `/openapi.json` — valid ones, boundary values
 * and invalid ones — and sends them to the shared local stack as an org on the free plan without a
 * payment method (metered engines answer 402 and the legacy endpoint 403 before any compute, so the
 * run stays cheap and bounded). It fails on any 5xx, any status the document does not list for
 * the operation, any response whose body, headers or content type the document does not describe,
 * and any method a path does not serve that is not answered 405.
 *
 * Not checked here: that every request the document calls valid is accepted. Rules across fields
 * (`end` after `start`, `query` or `script`) cannot be written in OpenAPI; they answer documented
 * 400s naming the field.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';
import { freshOrg } from './warehouse-api.ts';

const SCHEMATHESIS = path.join(REPO_ROOT, '.lakeline', 'venv-fuzz', 'bin', 'schemathesis');
const CHECKS = ['not_a_server_error', 'status_code_conformance', 'content_type_conformance', 'response_headers_conformance', 'response_schema_conformance', 'unsupported_method'];
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
    // Act
    const { code, output } = await run(
      [
        'run',
        `${baseUrl}/openapi.json`,
        '--header',
        `Authorization: Bearer ${token}`,
        '--checks',
        CHECKS.join(','),
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
    // Assess: the whole report is printed when anything failed.
    expect(code, output).toBe(0);
  }, 15 * 60_000);
});
