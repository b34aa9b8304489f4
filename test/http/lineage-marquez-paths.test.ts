// Marquez's paths added for its client, through the local gateway, each answer checked against its
// route's strict contract: a namespace, a run (`/api/v1/jobs/runs/{id}`), a dataset version by id,
// `job:` column lineage and Marquez's events path; unknown ones 404, bad parameters 400 naming them.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runEventJson } from '../unit/domain/lineage-graph/events.ts';
import { freshOrg } from './lineage-api.ts';
import { eventually, graphApi } from './lineage-graph-api.ts';

describe("Marquez's paths", async () => {
  const { token, api } = await freshOrg('Marquez paths');
  const graph = graphApi(api.baseUrl, token);
  const runId = randomUUID();
  const job = { namespace: 's3://jobs', name: 'etl/load:orders' };
  const output = { namespace: 'postgres://db:5432', name: 'public.orders' };
  const datasetPath = { namespace: output.namespace, dataset: output.name };
  for (const [eventType, time] of [['START', '2024-07-01T10:05:00Z'], ['COMPLETE', '2024-07-01T10:06:00.0Z']] as const) {
    expect((await api.post(JSON.stringify(runEventJson({ eventType, time, runId, job, outputs: [output] })))).status).toBe(200);
  }
  await eventually(() => graph.get('GetJobRun', { runId }), (a) => a.status === 200 && a.body.state === 'COMPLETED', Date.now(), 10_000);
  // The applier writes runs before namespaces (apply.ts), so a COMPLETED run can be read a moment
  // before its namespace's record is: wait for that too.
  await eventually(() => graph.get('GetNamespace', { namespace: job.namespace }), (a) => a.status === 200, Date.now(), 10_000);

  it('Should answer a namespace, a run and a dataset version by the ids the lists give', async () => {
    // Act
    const namespace = await graph.get('GetNamespace', { namespace: job.namespace });
    const run = await graph.get('GetJobRun', { runId: runId.toUpperCase() });
    const versions = await graph.get<{ versions: { version: string }[] }>('ListLineageDatasetVersions', datasetPath);
    const version = await graph.get('GetLineageDatasetVersion', { ...datasetPath, version: versions.body.versions[0]?.version ?? '' });

    // Assess
    expect(namespace).toMatchObject({ status: 200, body: { name: 's3://jobs', createdAt: '2024-07-01T10:05:00.000000+00:00' } });
    // An event time of its latest hour (which events a consumer batch held decides which), never before createdAt.
    expect(['2024-07-01T10:05:00.000000+00:00', '2024-07-01T10:06:00.000000+00:00']).toContain(namespace.body.updatedAt);
    expect(run).toMatchObject({ status: 200, body: { id: runId, state: 'COMPLETED', durationMs: 60_000 } });
    expect(version).toMatchObject({ status: 200, body: versions.body.versions[0] });
  });

  it('Should answer a job\'s column lineage and 404 an unknown namespace, run or version', async () => {
    expect((await graph.columnLineage({ nodeId: `job:${job.namespace}:${job.name}` })).status).toBe(200);
    expect((await graph.columnLineage({ nodeId: 'job:nowhere:nothing' })).body).toEqual({ error: 'nodeId: job nowhere:nothing not found' });
    expect((await graph.get('GetNamespace', { namespace: 'nowhere' })).body).toEqual({ error: 'namespace nowhere not found' });
    expect((await graph.get('GetJobRun', { runId: randomUUID() })).status).toBe(404);
    expect((await graph.get('GetJobRun', { runId: 'not-a-run' })).body).toEqual({ error: 'runId: must be a UUID' });
    expect((await graph.get('GetLineageDatasetVersion', { ...datasetPath, version: randomUUID() })).status).toBe(404);
  });

  it("Should list the events as sent on Marquez's events path, by event time, paged", async () => {
    // Act
    const newest = await graph.get<{ events: { eventType: string; eventTime: string }[] }>('ListMarquezEvents', {}, { after: '2024-07-01T00:00:00Z', before: '2024-07-02T00:00:00Z' });
    const oldest = await graph.get<{ events: { eventType: string }[] }>('ListMarquezEvents', {}, { sortDirection: 'asc', limit: '1', offset: '0' });
    const refused = await graph.get('ListMarquezEvents', {}, { start: '0' });
    const inverted = await graph.get('ListMarquezEvents', {}, { after: '2024-07-02T00:00:00Z', before: '2024-07-01T00:00:00Z' });
    const emptyBound = await graph.get('ListMarquezEvents', {}, { before: '' });

    // Assess
    expect(newest.body.events.map((e) => [e.eventType, e.eventTime])).toEqual([['COMPLETE', '2024-07-01T10:06:00.0Z'], ['START', '2024-07-01T10:05:00Z']]);
    expect(oldest.body.events.map((e) => e.eventType)).toEqual(['START']);
    expect(refused).toMatchObject({ status: 400, body: { error: 'start: is not a parameter of this endpoint (expected after, before, sortDirection, limit, offset)' } });
    // A window that holds no event is an empty page (as the events endpoint's); an empty bound is no time.
    expect(inverted).toMatchObject({ status: 200, body: { events: [] } });
    expect(emptyBound.status).toBe(400);
  });
});
