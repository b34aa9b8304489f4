/**
 * The CLI in-process (cli/run.ts) on in-memory stores: parsing, exit statuses, and that text and
 * `--json` outputs report the same records. The end-to-end runs against a real local stack are in
 * test/http/cli.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { verifySessionToken } from '#domain/core/session';
import type { LakeWriter } from '#domain/lake/ports';
import type { Org } from '#domain/orgs/org';
import { parseCommandLine } from '../../../cli/args.ts';
import { EXIT, runCli, type TargetOpener } from '../../../cli/run.ts';
import type { Target } from '../../../cli/target.ts';
import { TargetError } from '../../../cli/target-error.ts';
import { memoryFeedDirectory, RecordingSubscriber, storedAt } from '../../helpers/memory-feed.ts';
import { MemoryKeyStore, MemoryOrgStore } from '../../helpers/memory-stores.ts';
import { newRunId } from '../domain/lineage-graph/events.ts';

const SECRET = 'cli-test-secret';
let orgs: MemoryOrgStore;
let keys: MemoryKeyStore;
let opened: number;
let closed: number;
/** The demo loads the CLI asked for (the real lake writer is exercised in test/http/cli.test.ts). */
/** The feed `feed replay` works on (the replay on a real store is in test/adapters/event-feed.test.ts). */
let feed: ReturnType<typeof memoryFeedDirectory>;
let demoLoads: { orgId: string; scale: number; namespace: string | undefined }[];

const lakeWriter = (): LakeWriter => ({
  write: async () => {
    throw new Error('not used by the CLI');
  },
  drop: async () => false,
  demoLoad: async (orgId, scale, namespace) => {
    demoLoads.push({ orgId, scale, namespace });
    return { region: 5, nation: 25 };
  },
});

const opener: TargetOpener = async () => {
  opened++;
  const target: Target = {
    orgs,
    keys,
    sessionSecret: async () => SECRET,
    lakeWriter,
    // The rebuild runs against a real store in test/http/lineage-feed.test.ts.
    lineage: () => {
      throw new Error('not used by these tests');
    },
    feed: () => feed,
    close: async () => void closed++,
  };
  return target;
};

const run = async (...argv: string[]) => {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }, opener);
  return { code, stdout, stderr };
};
const json = async <T>(...argv: string[]): Promise<T> => {
  const result = await run(...argv, '--json');
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as T;
};

beforeEach(() => {
  feed = memoryFeedDirectory([new RecordingSubscriber('lineage-model'), new RecordingSubscriber('alerts')]);
  demoLoads = [];
  orgs = new MemoryOrgStore();
  keys = new MemoryKeyStore();
  opened = 0;
  closed = 0;
});

describe('lakeline feed replay', () => {
  const event = (receivedAt: string) => storedAt({ eventType: 'COMPLETE', time: '2030-01-01T00:00:00Z', runId: newRunId(), job: 'extract' }, new Date(receivedAt));

  it("Should replay every org's events since --from to that subscriber alone and report them", async () => {
    // Prepare
    const a = await json<Org>('orgs', 'create', '--name', 'A');
    const b = await json<Org>('orgs', 'create', '--name', 'B');
    feed.events.store(a.orgId, event('2026-11-27T09:00:00Z'), event('2026-11-27T10:00:00Z'));
    feed.events.store(b.orgId, event('2026-11-27T10:30:00Z'));
    // Act
    const replayed = await json<{ orgId: string; events: number; subscriber: string; from: string }[]>('feed', 'replay', '--subscriber', 'alerts', '--from', '2026-11-27T10:00:00Z');
    // Assess
    expect(replayed.map((r) => [r.orgId, r.events]).sort()).toEqual([[a.orgId, 1], [b.orgId, 1]].sort());
    expect(replayed[0]).toMatchObject({ subscriber: 'alerts', from: '2026-11-27T10:00:00.000Z' });
    const [model, alerts] = feed.subscribers as RecordingSubscriber[];
    expect(alerts?.ids(a.orgId)).toEqual([feed.events.byOrg.get(a.orgId)?.[1]?.id]);
    expect(model?.batches).toEqual([]);
  });

  it('Should replay one org with --org, in text', async () => {
    // Prepare
    const a = await json<Org>('orgs', 'create', '--name', 'A');
    feed.events.store(a.orgId, event('2026-11-27T10:00:00Z'));
    // Act
    const result = await run('feed', 'replay', '--subscriber', 'lineage-model', '--from', '2026-11-27T00:00:00Z', '--org', a.orgId);
    // Assess
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`Replayed 1 events of organization ${a.orgId} since 2026-11-27T00:00:00.000Z to lineage-model in 1 batches.\n`);
  });

  it('Should exit 2 for an unknown subscriber (naming the known ones), a bad --from, or a missing flag', async () => {
    // Act
    const unknown = await run('feed', 'replay', '--subscriber', 'alert', '--from', '2026-11-27T00:00:00Z');
    const badFrom = await run('feed', 'replay', '--subscriber', 'alerts', '--from', 'yesterday');
    const missing = await run('feed', 'replay', '--from', '2026-11-27T00:00:00Z');
    // Assess
    expect(unknown.code).toBe(EXIT.usage);
    expect(unknown.stderr).toContain('no feed subscriber named "alert" (known: lineage-model, alerts)');
    expect(badFrom.code).toBe(EXIT.usage);
    expect(badFrom.stderr).toContain('--from must be an ISO 8601 time');
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toContain('subscriber');
  });

  it('Should exit 1 for an unknown --org', async () => {
    // Act
    const result = await run('feed', 'replay', '--subscriber', 'alerts', '--from', '2026-11-27T00:00:00Z', '--org', 'nope');
    // Assess
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toContain('organization nope does not exist');
  });
});

describe('lakeline orgs', () => {
  it('Should create an org from the flags and print it as JSON', async () => {
    // Act
    const org = await json<Org>('orgs', 'create', '--name', 'Acme', '--plan', 'pro', '--payment-method', '--credit-limit', '250');
    // Assess
    expect(org).toMatchObject({ name: 'Acme', plan: 'pro', paymentMethod: true, creditLimitUsd: 250, usageUsd: 0 });
    expect(orgs.orgs.get(org.orgId)).toEqual(org);
  });

  it('Should default to the free plan without payment method', async () => {
    // Act
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Assess
    expect(org).toMatchObject({ plan: 'free', paymentMethod: false });
  });

  it('Should accept global options before the command words', async () => {
    // Act
    const result = await run('--json', '--profile', 'local', '--home', '/tmp/x', 'orgs', 'create', '--name', 'Acme');
    // Assess
    expect(result.code).toBe(EXIT.ok);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'Acme' });
  });

  it('Should list orgs as a table, and as the same records in JSON', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Act
    const text = await run('orgs', 'list');
    const listed = await json<Org[]>('orgs', 'list');
    // Assess
    expect(text.stdout).toMatch(/^ORG ID\s+NAME\s+PLAN\s+PAYMENT\s+CREDIT LIMIT\s+USAGE\s+CREATED\n/);
    expect(text.stdout).toContain(org.orgId);
    expect(listed).toEqual([org]);
  });

  it('Should say so when there are no orgs', async () => {
    // Act
    const result = await run('orgs', 'list');
    // Assess
    expect(result).toEqual({ code: EXIT.ok, stdout: 'No organizations.\n', stderr: '' });
  });

  it('Should update the given fields only', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme', '--plan', 'pro', '--payment-method');
    // Act
    const updated = await json<Org>('orgs', 'update', org.orgId, '--payment-method', 'false');
    // Assess
    expect(updated).toEqual({ ...org, paymentMethod: false });
  });
});

describe('lakeline keys and sessions', () => {
  it('Should create a key whose JSON carries the token and never the hash', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Act
    const key = await json<Record<string, string>>('keys', 'create', '--org', org.orgId, '--name', 'ci');
    // Assess
    expect(Object.keys(key).sort()).toEqual(['createdAt', 'keyId', 'name', 'orgId', 'scope', 'token']);
    expect(key.token).toMatch(new RegExp(`^ll_${key.keyId}_[0-9a-f]{64}$`));
    expect(key.scope).toBe('full');
  });

  it('Should create a read-only key with --read-only, and list its scope', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Act
    const key = await json<Record<string, string>>('keys', 'create', '--org', org.orgId, '--name', 'agent', '--read-only');
    const listed = await run('keys', 'list', '--org', org.orgId);
    // Assess
    expect(key.scope).toBe('read');
    expect(listed.stdout).toMatch(new RegExp(`${key.keyId}\\s+agent\\s+read\\s+active `));
  });

  it('Should list and revoke keys', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    const key = await json<{ keyId: string }>('keys', 'create', '--org', org.orgId);
    // Act
    const revoked = await run('keys', 'revoke', key.keyId);
    const listed = await run('keys', 'list', '--org', org.orgId);
    // Assess
    expect(revoked.code).toBe(EXIT.ok);
    expect(revoked.stdout).toContain(`Revoked API key ${key.keyId}`);
    expect(listed.stdout).toMatch(new RegExp(`${key.keyId}\\s+default\\s+full\\s+revoked `));
  });

  it('Should create a session cookie signed with the target secret, with a ready Cookie header', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Act
    const session = await json<{ cookie: string; header: string; expiresAt: string; cookieName: string }>('sessions', 'create', '--org', org.orgId, '--ttl', '120');
    // Assess
    const verdict = verifySessionToken(session.cookie, SECRET, new Date());
    expect(verdict).toMatchObject({ ok: true, claims: { orgId: org.orgId } });
    expect(session.header).toBe(`Cookie: lakeline_session=${session.cookie}`);
    expect(session.cookieName).toBe('lakeline_session');
    expect(new Date(session.expiresAt).getTime() / 1000).toBe(verdict.ok ? verdict.claims.exp : NaN);
  });
});

describe('lakeline demo load', () => {
  it('Should load the scale and namespace asked for into an existing org and print the row counts', async () => {
    // Prepare
    const org = await json<Org>('orgs', 'create', '--name', 'Acme');
    // Act
    const loaded = await json<{ orgId: string; tables: Record<string, number> }>('demo', 'load', '--org', org.orgId, '--scale', '0.1', '--namespace', 'tpch_small');
    // Assess
    expect(demoLoads).toEqual([{ orgId: org.orgId, scale: 0.1, namespace: 'tpch_small' }]);
    expect(loaded).toMatchObject({ orgId: org.orgId, tables: { region: 5, nation: 25 } });
  });

  it.each([
    [['--scale', '0'], '--scale must be a number from 0.001 to 100'],
    [['--scale', '1e3'], '--scale must be a number from 0.001 to 100'],
    [['--scale', '101'], '--scale must be a number from 0.001 to 100'],
    [['--namespace', '../x'], "--namespace: '../x' must be letters, digits and underscores"],
  ])('Should refuse %j with exit 2 before opening any store', async (flags, message) => {
    // Act
    const result = await run('demo', 'load', '--org', 'x', ...flags);
    // Assess
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain(message);
    expect(opened).toBe(0);
  });

  it('Should exit 1 for an unknown org and load nothing', async () => {
    // Act
    const result = await run('demo', 'load', '--org', '00000000-0000-0000-0000-000000000000');
    // Assess
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toContain('does not exist');
    expect(demoLoads).toEqual([]);
  });
});

describe('lakeline exit statuses', () => {
  it.each([
    [['keys', 'create', '--org', 'nope'], 'organization nope does not exist'],
    [['keys', 'list', '--org', 'nope'], 'organization nope does not exist'],
    [['keys', 'revoke', '0123456789abcdef'], 'API key 0123456789abcdef does not exist'],
    [['orgs', 'update', 'nope', '--plan', 'pro'], 'organization nope does not exist'],
    [['sessions', 'create', '--org', 'nope'], 'organization nope does not exist'],
  ])('Should exit 1 for %j, naming what is missing', async (argv, message) => {
    // Act
    const result = await run(...argv);
    // Assess
    expect(result).toEqual({ code: EXIT.failure, stdout: '', stderr: `lakeline: ${message}\n` });
  });

  it.each([
    [[], 'a command is required'],
    [['--json'], 'a command is required (got only options: --json)'],
    [['teams', 'list'], 'unknown command "teams"'],
    [['orgs'], '"orgs" needs an action: create, list, update'],
    [['orgs', 'delete', 'x'], 'unknown command "orgs delete"'],
    [['orgs', 'create'], '--name is required'],
    [['orgs', 'create', '--name', ' '], '--name must not be empty'],
    [['orgs', 'create', '--name', 'A', '--nmae', 'B'], "Unknown option '--nmae'"],
    [['orgs', 'create', '--name', 'A', '--plan', 'gold'], '--plan must be one of free, pro, enterprise, not "gold"'],
    [['orgs', 'create', '--name', 'A', '--credit-limit', '-1'], "Option '--credit-limit' argument is ambiguous"],
    [['orgs', 'create', '--name', 'A', '--credit-limit', '1e3'], '--credit-limit must be a non-negative amount in USD'],
    [['orgs', 'create', '--name', 'A', '--payment-method=yes'], "Option '--payment-method' does not take an argument"],
    [['orgs', 'update'], 'ORG_ID is required'],
    [['orgs', 'update', 'id'], 'nothing to change'],
    [['orgs', 'update', 'id', '--payment-method', 'yes'], '--payment-method must be true or false'],
    [['orgs', 'list', 'extra'], 'unexpected argument "extra"'],
    [['keys', 'create'], '--org is required'],
    [['keys', 'revoke'], 'KEY_ID is required'],
    [['sessions', 'create', '--org', 'o', '--ttl', '0'], '--ttl must be a whole number of seconds from 1 to 604800'],
    [['sessions', 'create', '--org', 'o', '--ttl', '604801'], '--ttl must be a whole number of seconds'],
    [['orgs', 'list', '--profile', 'gcp'], '--profile must be local or aws'],
    [['orgs', 'list', '--stack', 'S'], '--stack applies to --profile aws only'],
    [['orgs', 'list', '--region', 'eu-west-1'], '--region applies to --profile aws only'],
    [['orgs', 'list', '--profile', 'aws', '--home', '/tmp'], '--home applies to --profile local only'],
  ])('Should exit 2 for %j with "%s", before opening any store', async (argv, message) => {
    // Act
    const result = await run(...argv);
    // Assess
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain(`lakeline: ${message}`);
    expect(result.stderr).toMatch(/\nRun `lakeline [a-z ]*--help` for usage\.\n$/);
    expect(result.stdout).toBe('');
    expect(opened).toBe(0);
  });

  it("Should exit 2 when the domain refuses a flag's value, with the domain's message", async () => {
    // Act
    const result = await run('orgs', 'create', '--name', 'x'.repeat(201));
    // Assess
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toBe('lakeline: name: must be at most 200 characters\nRun `lakeline orgs create --help` for usage.\n');
    expect(orgs.orgs.size).toBe(0);
  });

  it('Should exit 1 with the reason when the store cannot be opened', async () => {
    // Act
    const result = await runCli(['orgs', 'list'], { stdout: () => undefined, stderr: (t) => expect(t).toBe('lakeline: stack Lakeline does not exist\n') }, async () => {
      throw new TargetError('stack Lakeline does not exist');
    });
    // Assess
    expect(result).toBe(EXIT.failure);
  });

  it('Should exit 1 when a store request fails, and still close the target', async () => {
    // Prepare
    orgs.list = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'TimeoutError' });
    };
    // Act
    const result = await run('orgs', 'list');
    // Assess
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toBe('lakeline: local store request failed: TimeoutError: connect ECONNREFUSED\n');
    expect(closed).toBe(1);
  });

  it('Should close the target after every command that opened it', async () => {
    // Act
    await run('orgs', 'create', '--name', 'A');
    await run('keys', 'list', '--org', 'nope');
    // Assess
    expect([opened, closed]).toEqual([2, 2]);
  });
});

describe('lakeline help', () => {
  it.each([
    [['--help'], 'Usage: lakeline <orgs|keys|sessions|demo|lineage|feed> <action> [options]'],
    [['-h'], 'Commands:'],
    [['--help'], 'lakeline mcp: the MCP server over stdio (LAKELINE_URL, LAKELINE_API_KEY)'],
    [['keys', '--help'], 'Usage: lakeline keys <action> [options]'],
    [['keys', 'create', '--help'], 'Usage: lakeline keys create --org ORG_ID [--name NAME] [--read-only] [global options]'],
    [['orgs', 'update', '-h'], 'Usage: lakeline orgs update ORG_ID [--name NAME] [--plan free|pro|enterprise] [--payment-method true|false] [--credit-limit USD] [global options]'],
  ])('Should print help for %j and exit 0 without opening a store', async (argv, expected) => {
    // Act
    const result = await run(...argv);
    // Assess
    expect(result.code).toBe(EXIT.ok);
    expect(result.stdout).toContain(expected);
    expect(opened).toBe(0);
  });

  it('Should list only the group commands in group help', async () => {
    // Act
    const result = await run('keys', '--help');
    // Assess
    expect(result.stdout).toContain('keys revoke');
    expect(result.stdout).not.toContain('orgs create');
  });
});

describe('parseCommandLine', () => {
  it('Should default to the local profile and text output', () => {
    // Act
    const parsed = parseCommandLine(['orgs', 'list']);
    // Assess
    expect(parsed).toMatchObject({ kind: 'command', globals: { profile: 'local', json: false } });
  });

  it('Should read aws options', () => {
    // Act
    const parsed = parseCommandLine(['--profile', 'aws', 'orgs', 'list', '--stack', 'Other', '--region', 'eu-west-1']);
    // Assess
    expect(parsed).toMatchObject({ kind: 'command', globals: { profile: 'aws', stack: 'Other', region: 'eu-west-1' } });
  });

  it('Should name positionals and options', () => {
    // Act
    const parsed = parseCommandLine(['orgs', 'update', 'org-1', '--plan', 'pro']);
    // Assess
    expect(parsed).toMatchObject({ kind: 'command', positionals: { ORG_ID: 'org-1' }, options: { plan: 'pro', name: undefined } });
  });
});
