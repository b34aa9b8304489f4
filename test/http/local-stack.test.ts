/**
 * The local stack as `npm run local` runs it (local/main.ts in a child process): it restarts on its
 * own data after Ctrl-C, keeps the demo org and key, publishes its connection details in
 * local.json, and refuses to start on a taken port or on a home another stack is using; and
 * `npm run local` itself runs it on the project's Node, whatever node the caller's PATH finds.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { updateOrg } from '#domain/orgs/manage';
import { REPO_ROOT, startStackProcess, tempHome } from '../helpers/local-stack-process.ts';
import { orgWithKey, storesAt } from '../helpers/stores.ts';

const NO_DEMO_DATA = { LAKELINE_DEMO_DATA: '0' };

const readLocalJson = (home: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(home, 'local.json'), 'utf8')) as Record<string, unknown>;

/** A request only an authenticated caller gets past: anything but 401 means the key was accepted. */
const authenticatedStatus = async (baseUrl: string, token: string): Promise<number> =>
  (await fetch(`${baseUrl}/api/v1/runs/3f2504e0-4f89-41d3-9a0c-0305e82c3301`, { headers: { authorization: `Bearer ${token}` } })).status;

/** Runs `tsx local/main.ts <args>` to its exit. */
const runMain = (args: readonly string[]): Promise<{ code: number | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'local/main.ts', ...args], { cwd: REPO_ROOT, env: { ...process.env, ...NO_DEMO_DATA }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('close', (code) => resolve({ code, stderr }));
  });

describe('local stack restarts', () => {
  it('Should keep keys, orgs and the demo key across a Ctrl-C restart on the same home', async () => {
    // Prepare: a first run, with a key and an org change made while it runs.
    const home = tempHome('restart');
    const first = await startStackProcess(home, 0, NO_DEMO_DATA);
    const whileRunning = readLocalJson(home);
    const stores = storesAt(first.dynamodbEndpoint);
    const created = await orgWithKey(stores, { name: 'Survivor', plan: 'free' });
    await updateOrg(stores.orgs, created.org.orgId, { plan: 'pro', paymentMethod: true });
    stores.close();
    const workedBefore = await authenticatedStatus(first.baseUrl, created.token);
    // Act
    const exitCode = await first.stop();
    const afterStop = readLocalJson(home);
    const second = await startStackProcess(home, 0, NO_DEMO_DATA);
    try {
      const reread = storesAt(second.dynamodbEndpoint);
      const org = await reread.orgs.get(created.org.orgId);
      reread.close();
      // Assess
      expect(exitCode).toBe(0);
      expect(whileRunning).toEqual({ baseUrl: first.baseUrl, apiKey: first.apiKey, orgId: first.orgId, dynamodbEndpoint: first.dynamodbEndpoint, pid: expect.any(Number) });
      expect(afterStop).toEqual({ baseUrl: first.baseUrl, apiKey: first.apiKey, orgId: first.orgId });
      expect(workedBefore).not.toBe(401);
      expect(await authenticatedStatus(second.baseUrl, created.token)).not.toBe(401);
      expect(org).toMatchObject({ name: 'Survivor', plan: 'pro', paymentMethod: true });
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.orgId).toBe(first.orgId);
      expect(await authenticatedStatus(second.baseUrl, second.apiKey)).not.toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('Should refuse to start a second stack on a home that a running stack uses, naming the cause', async () => {
    // Prepare
    const home = tempHome('locked');
    const running = await startStackProcess(home, 0, NO_DEMO_DATA);
    try {
      // Act
      const second = await runMain(['--port', '0', '--home', home]);
      // Assess
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`the local store ${path.join(home, 'dynamodb')} is in use by another lakeline process`);
      expect(await authenticatedStatus(running.baseUrl, running.apiKey)).not.toBe(401);
    } finally {
      await running.stop();
    }
  });
});

/**
 * A shell's environment: the caller's without what an enclosing `npm run` added (the
 * `node_modules/.bin` of each ancestor directory, npm's node-gyp-bin, the `npm_*` variables), so
 * the first node on its PATH is the machine's own.
 */
const shellEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
  PATH: (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !dir.endsWith(path.join('node_modules', '.bin')) && !dir.includes('node-gyp-bin'))
    .join(path.delimiter),
});

describe('npm run local', () => {
  it("Should run the stack on the tests' Node (22 or newer, the Lambdas' major) when started from a shell whose node is the machine's", async () => {
    // Prepare
    const home = tempHome('npm-run-local');
    // Its own process group, so the stop below is a terminal's Ctrl-C: npm, its shell, tsx and the stack.
    const npm = spawn('npm', ['run', 'local'], { cwd: REPO_ROOT, detached: true, env: { ...shellEnv(), LAKELINE_HOME: home, LAKELINE_PORT: '0', ...NO_DEMO_DATA }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    let output = '';
    npm.stderr.on('data', (d: Buffer) => (output += d.toString()));
    try {
      // Act
      await new Promise<void>((resolve, reject) => {
        npm.stdout.on('data', (d: Buffer) => {
          output += d.toString();
          if (output.includes('base URL:')) resolve();
        });
        void exited.then((code) => reject(new Error(`npm run local exited with ${code}: ${output}`)));
      });
      const { pid } = readLocalJson(home) as { pid: number };
      const stackNode = execFileSync(readlinkSync(`/proc/${pid}/exe`), ['--version'], { encoding: 'utf8' }).trim();
      // Assess
      expect(Number(stackNode.slice(1).split('.')[0])).toBeGreaterThanOrEqual(22);
      expect(stackNode).toBe(process.version);
    } finally {
      if (npm.exitCode === null && npm.signalCode === null && npm.pid !== undefined) process.kill(-npm.pid, 'SIGINT');
      await exited;
    }
  }, 120_000);
});

describe('local stack supervision', () => {
  it('Should restart its store when the store process is killed, say so in its log, and serve the data written before', async () => {
    // Prepare: an event stored, then the store process killed outright.
    const stack = await startStackProcess(tempHome('store-kill'), 0, NO_DEMO_DATA);
    try {
      const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
      const event = { eventType: 'START', eventTime: '2026-11-01T10:00:00Z', producer: 'urn:test', run: { runId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' }, job: { namespace: 'kill', name: 'before' } };
      expect((await fetch(`${stack.baseUrl}/api/v1/lineage`, { method: 'POST', headers, body: JSON.stringify(event) })).status).toBe(200);
      const store = execFileSync('pgrep', ['-P', String(stack.child.pid), '-f', 'dynamo-process'], { encoding: 'utf8' }).trim().split('\n').map(Number);
      expect(store).toHaveLength(1);
      // Act
      process.kill(store[0] as number, 'SIGKILL');
      const deadline = Date.now() + 20_000;
      let listed: { job_name: string }[] | undefined;
      while (Date.now() < deadline) {
        const answer = await fetch(`${stack.baseUrl}/api/v1/events?start=0&end=4102444800&namespace=kill`, { headers });
        if (answer.status === 200) {
          listed = (await answer.json()) as { job_name: string }[];
          break;
        }
        // While the store is down the service answers 503 (retry later), never a wrong answer.
        expect(answer.status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const after = await fetch(`${stack.baseUrl}/api/v1/lineage`, { method: 'POST', headers, body: JSON.stringify({ ...event, job: { namespace: 'kill', name: 'after' } }) });
      // Assess
      expect(listed?.map((e) => e.job_name)).toEqual(['before']);
      expect(after.status).toBe(200);
      expect(stack.output()).toContain('local store died; restarting it on the same port');
      expect(stack.output()).toContain('local store restarted');
      expect(stack.child.exitCode).toBeNull();
    } finally {
      await stack.stop();
    }
  });
});

describe('local stack start-up failures', () => {
  it('Should exit non-zero naming the port when the port is taken, before touching the home', async () => {
    // Prepare
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const home = tempHome('port');
    try {
      // Act
      const run = await runMain(['--port', String(port), '--home', home]);
      // Assess
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(existsSync(path.join(home, 'local.json'))).toBe(false);
      expect(existsSync(path.join(home, 'dynamodb'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it.each(['70000', 'http'])('Should exit 2 on an invalid port (%s)', async (port) => {
    // Act
    const run = await runMain([`--port=${port}`, '--home', tempHome('badport')]);
    // Assess
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`lakeline: invalid port ${port}`);
  });
});
