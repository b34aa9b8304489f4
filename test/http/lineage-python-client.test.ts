// The real OpenLineage Python client (openlineage-python from PyPI, HTTP transport, api_key auth,
// gzip on and off) against the shared local stack: runs test/python/test_openlineage_client.py
// with pytest, in a Python with the pinned packages (test/helpers/python-clients.ts).
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';
import { pythonWithPins } from '../helpers/python-clients.ts';
import { freshOrg } from './lineage-api.ts';

describe('OpenLineage Python client', () => {
  it('Should send START and COMPLETE events (plain and gzip) that come back with the derived fields right', { timeout: 300_000 }, async () => {
    // Prepare
    const python = pythonWithPins();
    const { token } = await freshOrg('Python client');

    // Act
    const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test/python/test_openlineage_client.py'], {
      cwd: REPO_ROOT,
      env: { ...process.env, LAKELINE_BASE_URL: inject('stack').baseUrl, LAKELINE_API_KEY: token },
      encoding: 'utf8',
      timeout: 120_000,
    });

    // Assess
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/4 passed/);
    expect(output).not.toMatch(/skipped/);
  });
});
