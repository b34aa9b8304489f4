/**
 * Alerts through the local gateway (issue 27), on a stack of its own whose alerts' clock is a file
 * (`LAKELINE_CLOCK_FILE`) and whose late-table check runs every 300 ms: each kind fires from real
 * producer shapes — a Spark FAIL (with what it breaks downstream and their owners), an Airflow task
 * failure, a dbt test failure in dbt-ol's facet shape, an odd run's duration, a late table as the
 * clock moves — and resolves when it should; a replay of the feed raises nothing twice; notices
 * reach the notifier in order; a read-only key reads but does not change; another org sees nothing.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '#domain/orgs/manage';
import type { AlertNotice } from '#domain/notifications/ports';
import { Alert, AlertList, AlertRule, AlertRules } from '#shared/schemas/alerts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';
import { startStackProcess, tempHome, type StackProcess } from '../helpers/local-stack-process.ts';
import { lakelineJson } from '../helpers/cli.ts';
import { startReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { Webhook } from 'standardwebhooks';
import { airflowTaskEvent, dbtTestEvent, ownedDataset, sparkEvent, timedRun } from './alert-payloads.ts';

/** A JSON answer, read loosely: each assertion names what it reads (the contract check has already checked it). */
type Answer = { error?: string; settings?: Record<string, unknown> } & Record<string, unknown>;

let stack: StackProcess;
let clockFile: string;
let full: string;
let readOnly: string;
let other: string;
let receiver: WebhookReceiver | undefined;

const call = async (token: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: Answer }> => {
  const response = await fetch(`${stack.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Answer };
};

const send = async (token: string, ...events: unknown[]): Promise<void> => {
  for (const event of events) expect((await call(token, 'POST', '/api/v1/lineage', event)).status).toBe(200);
};

/** Polls until `check` holds (the feed applies events within moments). */
const until = async <T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    value = await read();
  }
  return value;
};

const alertsOf = async (token: string, query = ''): Promise<AlertList> => {
  const answer = await call(token, 'GET', `/api/v1/alerts${query}`);
  expect(answer.status).toBe(200);
  return AlertList.parse(answer.body);
};
type AlertList = ReturnType<typeof AlertList.parse>;

const alertOf = async (token: string, id: string) => Alert.parse((await call(token, 'GET', `/api/v1/alerts/${id}`)).body);

const notices = (): AlertNotice[] => {
  const file = path.join(stack.home, 'alert-notices.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as AlertNotice) : [];
};

const setClock = (iso: string): void => writeFileSync(clockFile, iso);

beforeAll(async () => {
  const home = tempHome('alerts');
  clockFile = path.join(home, 'clock');
  setClock('2031-01-01T00:00:00Z');
  stack = await startStackProcess(home, 0, { LAKELINE_DEMO_DATA: '0', LAKELINE_CLOCK_FILE: clockFile, LAKELINE_FRESHNESS_CHECK_MS: '300' });
  const stores = storesAt(stack.dynamodbEndpoint);
  try {
    const a = await orgWithKey(stores, { name: 'Alerts A' });
    full = a.token;
    readOnly = (await createKey(stores.orgs, stores.keys, a.org.orgId, 'viewer', new Date(), 'read')).token;
    other = (await orgWithKey(stores, { name: 'Alerts B' })).token;
  } finally {
    stores.close();
  }
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

describe('alerts', () => {
  it('Should raise one RUN_FAILED alert for a failing Spark job, with its blast radius and owners, add a later failure to it, and resolve it on the next COMPLETE', async () => {
    // Prepare: the Spark job writes enriched orders, which a report task reads.
    const job = `orders_enrichment_${randomUUID().slice(0, 8)}.execute_insert_into_hadoop_fs_relation_command`;
    const raw = { namespace: 's3a://lake', name: '/raw/orders' };
    const enriched = ownedDataset('s3a://lake', `/enriched/orders_${job.slice(18, 26)}`, 'data-platform');
    const report = ownedDataset('postgres://bi:5432', `bi.public.report_${job.slice(18, 26)}`, 'bi-team');
    await send(full, sparkEvent({ eventType: 'COMPLETE', runId: randomUUID(), time: '2030-06-01T01:00:00Z', job, input: raw, output: enriched }));
    await send(full, { ...airflowTaskEvent({ eventType: 'COMPLETE', runId: randomUUID(), dagRunId: randomUUID(), time: '2030-06-01T02:00:00Z', dag: 'reports', task: `build_${job.slice(18, 26)}`, outputs: [report] }), inputs: [{ namespace: 's3a://lake', name: enriched.name }] });
    const failing = randomUUID();
    // Act
    await send(full, sparkEvent({ eventType: 'START', runId: failing, time: '2030-06-02T01:00:00Z', job, input: raw, output: enriched }), sparkEvent({ eventType: 'FAIL', runId: failing, time: '2030-06-02T01:05:00Z', job, input: raw, output: enriched }));
    // Assess
    const list = await until(() => alertsOf(full, '?kind=RUN_FAILED&state=OPEN'), (l) => l.alerts.some((a) => a.subject.name === job), 'the RUN_FAILED alert');
    const opened = list.alerts.find((a) => a.subject.name === job)!;
    expect(opened).toMatchObject({ kind: 'RUN_FAILED', state: 'OPEN', subject: { type: 'JOB', namespace: 'spark-prod', name: job }, runCount: 1, ruleId: 'default-run-failed' });
    expect(opened.details.errorMessage).toMatch(/stage failure/);
    const whole = await until(() => alertOf(full, opened.alertId), (a) => a.blastRadius.jobCount > 0, 'the blast radius');
    expect(whole.runs[0]).toMatchObject({ runId: failing, state: 'FAIL' });
    expect(whole.blastRadius.datasets.map((d) => [d.name, d.distance, d.owners])).toEqual([
      [enriched.name, 1, ['data-platform']],
      [report.name, 3, ['bi-team']],
    ]);
    expect(whole.blastRadius.jobs.map((j) => [j.name, j.distance])).toEqual([[`reports.build_${job.slice(18, 26)}`, 2]]);
    expect(whole.blastRadius.owners).toEqual(['bi-team', 'data-platform']);

    // Act: a second failure, then a success.
    const second = randomUUID();
    await send(full, sparkEvent({ eventType: 'FAIL', runId: second, time: '2030-06-03T01:05:00Z', job, input: raw, output: enriched }));
    const updated = await until(() => alertOf(full, opened.alertId), (a) => a.runCount === 2, 'the second failure');
    expect(updated.runs.map((r) => r.runId)).toEqual([second, failing]);
    expect((await alertsOf(full, '?kind=RUN_FAILED')).alerts.filter((a) => a.subject.name === job)).toHaveLength(1);
    await send(full, sparkEvent({ eventType: 'COMPLETE', runId: randomUUID(), time: '2030-06-04T01:05:00Z', job, input: raw, output: enriched }));
    // Assess
    const resolved = await until(() => alertOf(full, opened.alertId), (a) => a.state === 'RESOLVED', 'the resolution');
    expect(resolved).toMatchObject({ resolution: 'RUN_COMPLETED', sequence: 3 });
    const sent = await until(async () => notices().filter((n) => n.alertId === opened.alertId), (n) => n.length === 3, 'three notices');
    expect(sent.map((n) => [n.transition, n.sequence])).toEqual([['OPENED', 1], ['UPDATED', 2], ['RESOLVED', 3]]);
    expect(sent[0]?.event).toMatchObject({ eventType: 'FAIL', run: { runId: failing } });
    expect((sent[0]?.alert as { blastRadius?: unknown }).blastRadius).toBeDefined();
  });

  it('Should raise an Airflow task failure that a full key acknowledges and resolves, and a read-only key may read but not change', async () => {
    // Prepare
    const task = `load_${randomUUID().slice(0, 8)}`;
    const runId = randomUUID();
    await send(full, airflowTaskEvent({ eventType: 'START', runId, dagRunId: randomUUID(), time: '2030-06-05T01:00:00Z', dag: 'orders_pipeline', task }));
    await send(full, airflowTaskEvent({ eventType: 'FAIL', runId, dagRunId: randomUUID(), time: '2030-06-05T01:02:00Z', dag: 'orders_pipeline', task }));
    const list = await until(() => alertsOf(full, '?namespace=prod-airflow'), (l) => l.alerts.some((a) => a.subject.name === `orders_pipeline.${task}`), 'the Airflow alert');
    const id = list.alerts.find((a) => a.subject.name === `orders_pipeline.${task}`)!.alertId;
    expect(list.alerts.find((a) => a.alertId === id)?.details.errorMessage).toBe("KeyError: 'customer_id'");
    // Act / Assess: read-only reads, is refused changes.
    expect((await call(readOnly, 'GET', `/api/v1/alerts/${id}`)).status).toBe(200);
    const refused = await call(readOnly, 'POST', `/api/v1/alerts/${id}/acknowledge`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/read-only/);
    expect((await call(readOnly, 'POST', `/api/v1/alerts/${id}/resolve`)).status).toBe(403);
    // Act / Assess: the full key acknowledges (twice: no change), then resolves.
    const acknowledged = await call(full, 'POST', `/api/v1/alerts/${id}/acknowledge`);
    expect(acknowledged.status).toBe(200);
    expect(Alert.parse(acknowledged.body)).toMatchObject({ state: 'ACKNOWLEDGED', sequence: 2 });
    expect(Alert.parse((await call(full, 'POST', `/api/v1/alerts/${id}/acknowledge`)).body).sequence).toBe(2);
    expect((await alertsOf(full, '?state=ACKNOWLEDGED')).alerts.map((a) => a.alertId)).toContain(id);
    const resolved = Alert.parse((await call(full, 'POST', `/api/v1/alerts/${id}/resolve`)).body);
    expect(resolved).toMatchObject({ state: 'RESOLVED', resolution: 'BY_USER', sequence: 3 });
    expect((await call(full, 'POST', `/api/v1/alerts/${id}/acknowledge`)).status).toBe(409);
    expect((await call(full, 'POST', `/api/v1/alerts/${id}/snooze`)).body.error).toBe('action: snooze is not one of acknowledge, resolve');
    expect(notices().filter((n) => n.alertId === id).map((n) => n.transition)).toEqual(['OPENED', 'ACKNOWLEDGED', 'RESOLVED']);
  });

  it("Should raise TEST_FAILED from dbt-ol's dataQualityAssertions naming dataset, column and assertion, and resolve it when the test passes", async () => {
    // Prepare
    const model = `customer_orders_${randomUUID().slice(0, 8)}`;
    const ns = 'postgres://warehouse:5432';
    // Act
    await send(full, dbtTestEvent({ runId: randomUUID(), time: '2030-06-06T02:00:00Z', namespace: ns, model, assertions: [{ assertion: 'not_null', success: true, column: 'customer_name' }, { assertion: 'expression_is_true', success: false, column: 'lifetime_value' }] }));
    // Assess
    const list = await until(() => alertsOf(full, '?kind=TEST_FAILED'), (l) => l.alerts.some((a) => a.subject.name === model), 'the TEST_FAILED alert');
    const alerts = list.alerts.filter((a) => a.subject.name === model);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ subject: { type: 'DATASET', namespace: ns, name: model }, state: 'OPEN', details: { assertion: 'expression_is_true', column: 'lifetime_value' } });
    expect(alerts[0]?.title).toMatch(/expression_is_true on column lifetime_value failed/);
    // Act: the test passes in the next run.
    await send(full, dbtTestEvent({ runId: randomUUID(), time: '2030-06-07T02:00:00Z', namespace: ns, model, assertions: [{ assertion: 'expression_is_true', success: true, column: 'lifetime_value' }] }));
    // Assess
    const resolved = await until(() => alertOf(full, alerts[0]!.alertId), (a) => a.state === 'RESOLVED', 'the test passing');
    expect(resolved.resolution).toBe('TEST_PASSED');
  });

  it('Should raise ODD_RUN for a duration far outside the job’s recent successful runs, saying which figure and by what rule', async () => {
    // Prepare: six ordinary runs of about ten minutes.
    const job = `orders_pipeline.nightly_${randomUUID().slice(0, 8)}`;
    const minutes = [10, 11, 9, 10, 12, 10];
    for (const [i, m] of minutes.entries()) await send(full, ...timedRun({ job, start: `2030-07-0${i + 1}T02:00:00Z`, minutes: m, rows: 1000 + i, output: `public.nightly_${job.slice(-8)}` }));
    // Act: a run of 95 minutes (rows as usual).
    await send(full, ...timedRun({ job, start: '2030-07-08T02:00:00Z', minutes: 95, rows: 1003, output: `public.nightly_${job.slice(-8)}` }));
    // Assess
    const list = await until(() => alertsOf(full, '?kind=ODD_RUN'), (l) => l.alerts.some((a) => a.subject.name === job), 'the ODD_RUN alert');
    const odd = list.alerts.find((a) => a.subject.name === job)!;
    expect(odd.details.oddMetrics).toEqual(['durationMs']);
    expect((odd.details.figures as Record<string, { median: number; value: number }>).durationMs).toMatchObject({ median: 600_000, value: 5_700_000 });
    expect(odd.details.rule).toMatch(/median and MAD/);
    // Act: an ordinary run resolves it.
    await send(full, ...timedRun({ job, start: '2030-07-09T02:00:00Z', minutes: 10, rows: 1002, output: `public.nightly_${job.slice(-8)}` }));
    // Assess
    expect((await until(() => alertOf(full, odd.alertId), (a) => a.state === 'RESOLVED', 'the ordinary run')).resolution).toBe('RUN_NORMAL');
  });

  it('Should raise LATE_TABLE once the clock passes the learned cadence, once only, and resolve it when the table is written', async () => {
    // Prepare: hourly writes 20:00–23:00 on 31 December 2030; the clock at 23:30 (not late).
    const table = `public.hourly_${randomUUID().slice(0, 8)}`;
    setClock('2030-12-31T23:30:00Z');
    for (const hour of [20, 21, 22, 23]) await send(full, ...timedRun({ job: `load_${table}`, start: `2030-12-31T${hour}:00:00Z`, minutes: 0, rows: 10, output: table }));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await alertsOf(full, '?kind=LATE_TABLE')).alerts.filter((a) => a.subject.name === table)).toEqual([]);
    // Act: 02:00 next day — due by 23:00 + 1.5 h + 5 min.
    setClock('2031-01-01T02:00:00Z');
    // Assess
    const list = await until(() => alertsOf(full, '?kind=LATE_TABLE'), (l) => l.alerts.some((a) => a.subject.name === table), 'the LATE_TABLE alert');
    const late = list.alerts.find((a) => a.subject.name === table)!;
    expect(late.details).toMatchObject({ lastWriteAt: '2030-12-31T23:00:00.000Z', cadenceMinutes: 60, cadenceLearned: true });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const again = (await alertsOf(full, '?kind=LATE_TABLE')).alerts.filter((a) => a.subject.name === table);
    expect(again.map((a) => [a.alertId, a.runCount])).toEqual([[late.alertId, 1]]);
    // Act: the table is written.
    await send(full, ...timedRun({ job: `load_${table}`, start: '2031-01-01T02:10:00Z', minutes: 0, rows: 10, output: table }));
    // Assess
    expect((await until(() => alertOf(full, late.alertId), (a) => a.state === 'RESOLVED', 'the write')).resolution).toBe('TABLE_WRITTEN');
    setClock('2031-01-01T00:00:00Z');
  });

  it("Should deliver a Spark job's failure to the org's webhook, signed, with the alert, its blast radius and the FAIL event, then its acknowledgement, in order", async () => {
    // Prepare: a destination on a real receiver, and a job with something downstream.
    receiver = await startReceiver(200);
    const created = await call(full, 'POST', '/api/v1/webhooks', { url: receiver.url, alertKinds: ['RUN_FAILED'] });
    expect(created.status).toBe(200);
    const secret = String(created.body.secret);
    const job = `webhook_${randomUUID().slice(0, 8)}.execute_insert_into_hadoop_fs_relation_command`;
    const raw = { namespace: 's3a://lake', name: '/raw/payments' };
    const out = ownedDataset('s3a://lake', `/enriched/payments_${job.slice(8, 16)}`, 'payments-team');
    await send(full, sparkEvent({ eventType: 'COMPLETE', runId: randomUUID(), time: '2030-07-01T01:00:00Z', job, input: raw, output: out }));
    await send(full, { ...airflowTaskEvent({ eventType: 'COMPLETE', runId: randomUUID(), dagRunId: randomUUID(), time: '2030-07-01T02:00:00Z', dag: 'finance', task: `close_${job.slice(8, 16)}`, outputs: [ownedDataset('postgres://bi:5432', `bi.public.close_${job.slice(8, 16)}`, 'finance')] }), inputs: [{ namespace: 's3a://lake', name: out.name }] });
    const failing = randomUUID();
    const fail = sparkEvent({ eventType: 'FAIL', runId: failing, time: '2030-07-02T01:05:00Z', job, input: raw, output: out });

    // Act
    await send(full, fail);
    const [opened] = await receiver.waitFor(1, 30_000);

    // Assess: signed as Standard Webhooks says, and carrying what the issue names.
    const notice = new Webhook(secret).verify(opened?.body ?? '', opened?.headers ?? {}) as { type?: string; data?: Record<string, unknown> } & Record<string, unknown>;
    const text = JSON.stringify(notice);
    expect(text).toContain(job);
    expect(text).toContain('OPENED');
    expect(text).toContain(failing);
    expect(text).toContain('payments-team');
    expect(text).toContain(`close_${job.slice(8, 16)}`);
    const alertId = (await alertsOf(full, '?kind=RUN_FAILED&state=OPEN')).alerts.find((a) => a.subject.name === job)?.alertId ?? '';
    expect(text).toContain(alertId);

    // Act: acknowledging notifies too, after the opening.
    expect((await call(full, 'POST', `/api/v1/alerts/${alertId}/acknowledge`)).status).toBe(200);
    const [, acknowledged] = await receiver.waitFor(2, 30_000);
    const second = JSON.stringify(new Webhook(secret).verify(acknowledged?.body ?? '', acknowledged?.headers ?? {}));
    expect(second).toContain('ACKNOWLEDGED');
    expect(second).toContain(alertId);
  });

  it('Should raise nothing twice when the feed replays every event to the alerts subscriber', async () => {
    // Prepare: the alerts so far, and their notices.
    const before = (await alertsOf(full, '?limit=200')).alerts.map((a) => [a.alertId, a.sequence]);
    const noticesBefore = notices().length;
    expect(before.length).toBeGreaterThan(0);
    // Act
    const replayed = await lakelineJson<{ events: number }[]>(['feed', 'replay', '--subscriber', 'alerts', '--from', '2000-01-01T00:00:00Z', '--home', stack.home]);
    // Assess
    expect(replayed.reduce((n, r) => n + r.events, 0)).toBeGreaterThan(10);
    expect((await alertsOf(full, '?limit=200')).alerts.map((a) => [a.alertId, a.sequence])).toEqual(before);
    expect(notices()).toHaveLength(noticesBefore);
  });

  it('Should show another org none of these alerts, and 404 for their ids', async () => {
    // Prepare
    const mine = (await alertsOf(full)).alerts[0]!;
    // Act / Assess
    expect((await alertsOf(other)).alerts).toEqual([]);
    expect((await call(other, 'GET', `/api/v1/alerts/${mine.alertId}`)).status).toBe(404);
    expect((await call(other, 'POST', `/api/v1/alerts/${mine.alertId}/resolve`)).status).toBe(404);
  });

  it('Should page the listing by cursor and refuse bad filters with a 400 naming them', async () => {
    // Act
    const first = await alertsOf(full, '?limit=2');
    const second = await alertsOf(full, `?limit=2&cursor=${first.next}`);
    // Assess
    expect(first.alerts).toHaveLength(2);
    expect(second.alerts.map((a) => a.alertId).some((id) => first.alerts.some((a) => a.alertId === id))).toBe(false);
    expect(second.alerts[0]!.alertId < first.alerts[1]!.alertId).toBe(true);
    const opened = first.alerts[0]!.openedAt;
    const inRange = await alertsOf(full, `?from=${encodeURIComponent(opened)}&to=${encodeURIComponent(new Date(Date.parse(opened) + 1).toISOString())}`);
    expect(inRange.alerts.map((a) => a.alertId)).toContain(first.alerts[0]!.alertId);
    expect(inRange.alerts.every((a) => a.openedAt === opened)).toBe(true);
    expect((await alertsOf(full, '?from=2040-01-01T00:00:00Z&to=2039-01-01T00:00:00Z')).alerts).toEqual([]);
    expect((await call(full, 'GET', '/api/v1/alerts?state=BROKEN')).body.error).toMatch(/^state: BROKEN is not one of/);
    expect((await call(full, 'GET', '/api/v1/alerts?from=yesterday')).body.error).toMatch(/^from:/);
    expect((await call(full, 'GET', '/api/v1/alerts?state=open')).status).toBe(400);
    expect((await call(full, 'GET', '/api/v1/alerts?limit=0')).status).toBe(400);
    expect((await call(full, 'GET', '/api/v1/alerts?colour=red')).body.error).toMatch(/^colour: unknown parameter/);
  });
});

describe('alert rules', () => {
  it('Should list the built-in rules, turn RUN_FAILED off for a namespace pattern, and raise nothing there', async () => {
    // Prepare
    const { body } = await call(full, 'GET', '/api/v1/alert-rules');
    expect(AlertRules.parse(body).rules.map((r) => [r.ruleId, r.enabled, r.builtIn])).toEqual([
      ['default-run-failed', true, true],
      ['default-test-failed', true, true],
      ['default-late-table', true, true],
      ['default-odd-run', true, true],
    ]);
    // Act
    const created = await call(full, 'POST', '/api/v1/alert-rules', { kind: 'RUN_FAILED', enabled: false, scope: { namespaces: ['staging-*'] } });
    expect(created.status).toBe(200);
    const rule = AlertRule.parse(created.body);
    const job = `quiet_${randomUUID().slice(0, 8)}`;
    const loud = `loud_${randomUUID().slice(0, 8)}`;
    const fail = (namespace: string, name: string) => ({ ...airflowTaskEvent({ eventType: 'FAIL', runId: randomUUID(), dagRunId: randomUUID(), time: '2030-08-01T00:00:00Z', dag: 'd', task: name }), job: { namespace, name } });
    await send(full, fail('staging-airflow', job), fail('prod-airflow', loud));
    // Assess: the prod failure raises, the staging one (sent first) does not.
    await until(() => alertsOf(full, '?kind=RUN_FAILED'), (l) => l.alerts.some((a) => a.subject.name === loud), 'the prod alert');
    expect((await alertsOf(full, '?namespace=staging-airflow')).alerts).toEqual([]);
    expect(rule).toMatchObject({ kind: 'RUN_FAILED', enabled: false, builtIn: false, scope: { namespaces: ['staging-*'], jobs: [], datasets: [] }, settings: { states: ['FAIL', 'ABORT'] } });
    // Act / Assess: tune the built-in ODD_RUN rule; a built-in rule is not deleted; ours is.
    const tuned = await call(full, 'PUT', '/api/v1/alert-rules/default-odd-run', { kind: 'ODD_RUN', settings: { minHistory: 10 } });
    expect(AlertRule.parse(tuned.body)).toMatchObject({ ruleId: 'default-odd-run', builtIn: true, settings: { minHistory: 10, window: 20 } });
    expect((await call(full, 'DELETE', '/api/v1/alert-rules/default-odd-run')).status).toBe(409);
    expect((await call(readOnly, 'DELETE', `/api/v1/alert-rules/${rule.ruleId}`)).status).toBe(403);
    const left = await call(full, 'DELETE', `/api/v1/alert-rules/${rule.ruleId}`);
    expect(AlertRules.parse(left.body).rules.map((r) => r.ruleId)).not.toContain(rule.ruleId);
    const othersRules = AlertRules.parse((await call(other, 'GET', '/api/v1/alert-rules')).body).rules;
    expect(othersRules.find((r) => r.ruleId === 'default-odd-run')?.settings).toMatchObject({ minHistory: 5 });
  });

  it('Should store a setting DynamoDB could not hold as a number (found by the fuzzer: 1e-300 was a 500)', async () => {
    // Act
    const created = await call(full, 'POST', '/api/v1/alert-rules', { kind: 'ODD_RUN', scope: { datasets: ['tiny'] }, settings: { threshold: 1e-300 } });
    // Assess
    expect(created.status).toBe(200);
    const listed = AlertRules.parse((await call(full, 'GET', '/api/v1/alert-rules')).body).rules.find((r) => r.ruleId === created.body.ruleId);
    expect(listed?.settings).toMatchObject({ threshold: 1e-300 });
    expect((await call(full, 'DELETE', `/api/v1/alert-rules/${String(created.body.ruleId)}`)).status).toBe(200);
  });

  it('Should refuse a rule body with a wrong setting or an unknown kind (400), and a scoped rule without scope or a built-in one with a scope (409), naming it', async () => {
    const unscoped = await call(full, 'POST', '/api/v1/alert-rules', { kind: 'RUN_FAILED' });
    expect([unscoped.status, unscoped.body.error]).toEqual([409, expect.stringMatching(/^scope:/)]);
    expect((await call(full, 'POST', '/api/v1/alert-rules', { kind: 'ODD_RUN', scope: { jobs: ['x'] }, settings: { threshold: -1 } })).body.error).toMatch(/^settings\.threshold:/);
    expect((await call(full, 'POST', '/api/v1/alert-rules', { kind: 'LOUD', scope: { jobs: ['x'] } })).status).toBe(400);
    const builtInScoped = await call(full, 'PUT', '/api/v1/alert-rules/default-run-failed', { kind: 'RUN_FAILED', scope: { jobs: ['x'] } });
    expect([builtInScoped.status, builtInScoped.body.error]).toEqual([409, expect.stringMatching(/^scope: a built-in rule/)]);
  });
});
