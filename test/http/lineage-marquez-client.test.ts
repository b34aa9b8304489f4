// Marquez's own Python client (marquez-python from PyPI, unchanged, as a Marquez user's script
// calls it) against the shared local stack: runs test/python/test_marquez_client.py with pytest,
// in a Python with the pinned packages (test/helpers/python-clients.ts). Every read method of the
// client answers after real producers' events are in: namespaces, jobs, runs, datasets, dataset
// versions, column lineage by dataset, field and job, and Marquez's events path; times, tags and
// numbers as the producers sent them; the write APIs that predate OpenLineage refused.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../helpers/local-stack-process.ts';
import { pythonWithPins } from '../helpers/python-clients.ts';
import { freshOrg } from './lineage-api.ts';

describe('Marquez Python client', () => {
  it("Should answer every read method of Marquez's client, unchanged, over HTTP", { timeout: 300_000 }, async () => {
    // Prepare
    const python = pythonWithPins();
    const { token } = await freshOrg('Marquez client');

    // Act
    const run = spawnSync(python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-W', 'ignore::DeprecationWarning', 'test/python/test_marquez_client.py'], {
      cwd: REPO_ROOT,
      env: { ...process.env, LAKELINE_BASE_URL: inject('stack').baseUrl, LAKELINE_API_KEY: token },
      encoding: 'utf8',
      timeout: 180_000,
    });

    // Assess
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toMatch(/16 passed/);
    expect(output).not.toMatch(/skipped/);
  });
});
