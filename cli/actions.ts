/**
 * @module actions
 * What each command does: flag values are checked here (bad values are usage errors), the work is
 * the domain's use cases in `domain/orgs/manage.ts`, and each action returns both its JSON and its
 * text form so `--json` and text output can never report different things.
 */
import { DEFAULT_SESSION_TTL_SECONDS, MAX_SESSION_TTL_SECONDS, SESSION_COOKIE, verifySessionToken } from '#domain/core/session';
import { NotFoundError } from '#domain/errors';
import { checkIdentifier } from '#domain/core/names';
import { replayFeed, subscriberNamed } from '#domain/feed/replay';
import { rebuildLineageModel } from '#domain/lineage-graph/rebuild';
import { createKey, createOrg, createSession, describeKey, listKeys, revokeKey, updateOrg } from '#domain/orgs/manage';
import { KEY_CACHE_TTL_MS } from '#domain/auth/authorize';
import { PLAN_NAMES, type PlanName } from '#domain/core/plans';
import { UsageError, type CommandArgs } from './args.ts';
import { keyTable, orgDetails, orgTable } from './format.ts';
import type { Target } from './target.ts';

/** A command's result in both forms. */
export interface Output {
  readonly json: unknown;
  readonly text: string;
}

/**
 * One command's implementation, in two steps: checking the flags (synchronous, throws UsageError)
 * returns the work to do on a target, so a bad flag is reported before any store is opened.
 */
export type Action = (args: CommandArgs) => (target: Target) => Promise<Output>;

const str = (args: CommandArgs, name: string): string | undefined => args.options[name] as string | undefined;

const plan = (args: CommandArgs): PlanName | undefined => {
  const value = str(args, 'plan');
  if (value === undefined) return undefined;
  if (!(PLAN_NAMES as readonly string[]).includes(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}, not "${value}"`, { command: args.command });
  return value as PlanName;
};

const creditLimit = (args: CommandArgs): number | undefined => {
  const value = str(args, 'credit-limit');
  if (value === undefined) return undefined;
  const usd = Number(value);
  // Number('') and Number(' ') are 0, and Number('1e400') is Infinity: require a plain decimal.
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(usd)) throw new UsageError(`--credit-limit must be a non-negative amount in USD, not "${value}"`, { command: args.command });
  return usd;
};

const paymentMethodFlag = (args: CommandArgs): boolean | undefined => {
  const value = args.options['payment-method'];
  if (value === undefined || typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--payment-method must be true or false, not "${value}"`, { command: args.command });
};

const ttl = (args: CommandArgs): number => {
  const value = str(args, 'ttl');
  if (value === undefined) return DEFAULT_SESSION_TTL_SECONDS;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_SESSION_TTL_SECONDS) {
    throw new UsageError(`--ttl must be a whole number of seconds from 1 to ${MAX_SESSION_TTL_SECONDS}, not "${value}"`, { command: args.command });
  }
  return Number(value);
};

/** The largest TPC-H scale the CLI loads (SF 100 is ~600 million lineitem rows). */
const MAX_SCALE = 100;

const scale = (args: CommandArgs): number => {
  const value = str(args, 'scale');
  if (value === undefined) return 0.01;
  const sf = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(sf >= 0.001 && sf <= MAX_SCALE)) {
    throw new UsageError(`--scale must be a number from 0.001 to ${MAX_SCALE}, not "${value}"`, { command: args.command });
  }
  return sf;
};

const namespace = (args: CommandArgs): string => {
  const value = str(args, 'namespace') ?? 'tpch';
  // The lake's own rule for namespace names (domain/core/names.ts), checked before any work.
  try {
    return checkIdentifier('--namespace', value);
  } catch (err) {
    throw new UsageError((err as Error).message, { command: args.command });
  }
};

/** Every command's action, by `group action`. */
export const ACTIONS: Readonly<Record<string, Action>> = {
  'orgs create': (args) => {
    const creditLimitUsd = creditLimit(args);
    const planName = plan(args);
    return async (target) => {
      const org = await createOrg(target.orgs, {
      name: str(args, 'name') as string,
      ...(planName ? { plan: planName } : {}),
      paymentMethod: args.options['payment-method'] === true,
      ...(creditLimitUsd === undefined ? {} : { creditLimitUsd }),
      });
      return { json: org, text: `Created organization ${org.orgId}\n${orgDetails(org)}` };
    };
  },

  'orgs list': () => async (target) => {
    const orgs = await target.orgs.list();
    return { json: orgs, text: orgTable(orgs) };
  },

  'orgs update': (args) => {
    const name = str(args, 'name');
    const planName = plan(args);
    const paymentMethod = paymentMethodFlag(args);
    const creditLimitUsd = creditLimit(args);
    if ([name, planName, paymentMethod, creditLimitUsd].every((v) => v === undefined)) {
      throw new UsageError('nothing to change: give at least one of --name, --plan, --payment-method, --credit-limit', { command: args.command });
    }
    const changes = {
      ...(name === undefined ? {} : { name }),
      ...(planName === undefined ? {} : { plan: planName }),
      ...(paymentMethod === undefined ? {} : { paymentMethod }),
      ...(creditLimitUsd === undefined ? {} : { creditLimitUsd }),
    };
    return async (target) => {
      const org = await updateOrg(target.orgs, args.positionals.ORG_ID as string, changes);
      return { json: org, text: `Updated organization ${org.orgId}\n${orgDetails(org)}` };
    };
  },

  'keys create': (args) => async (target) => {
    const orgId = str(args, 'org') as string;
    const scope = args.options['read-only'] === true ? 'read' : 'full';
    const { record, token } = await createKey(target.orgs, target.keys, orgId, str(args, 'name') ?? 'default', new Date(), scope);
    return {
      json: { ...describeKey(record), token },
      text: [
        `Created ${scope === 'read' ? 'read-only ' : ''}API key ${record.keyId} ("${record.name}") for organization ${orgId}.`,
        'Token (shown only now; store it safely):',
        token,
      ].join('\n'),
    };
  },

  'keys list': (args) => async (target) => {
    const keys = await listKeys(target.orgs, target.keys, str(args, 'org') as string);
    return { json: keys, text: keyTable(keys) };
  },

  'keys revoke': (args) => async (target) => {
    const key = await revokeKey(target.keys, args.positionals.KEY_ID as string);
    return {
      json: key,
      text: [
        `Revoked API key ${key.keyId} of organization ${key.orgId} (revoked at ${key.revokedAt}).`,
        `Authorizers that used it recently may accept it for up to their key cache time (${KEY_CACHE_TTL_MS / 1000} s by default).`,
      ].join('\n'),
    };
  },

  'demo load': (args) => {
    const sf = scale(args);
    const ns = namespace(args);
    return async (target) => {
      const orgId = str(args, 'org') ?? target.defaultOrgId;
      if (!orgId) throw new UsageError('--org is required (no local stack demo organization was found in this home)', { command: args.command });
      // Through the org store first, so an unknown org is "does not exist", not a lake error.
      if (!(await target.orgs.get(orgId))) throw new NotFoundError(`organization ${orgId} does not exist`);
      const started = Date.now();
      const tables = await target.lakeWriter().demoLoad(orgId, sf, ns);
      const seconds = (Date.now() - started) / 1000;
      return {
        json: { orgId, namespace: ns, scale: sf, tables, seconds },
        text: [`Loaded TPC-H SF ${sf} into ${ns} for organization ${orgId} in ${seconds.toFixed(1)} s:`, ...Object.entries(tables).map(([t, rows]) => `  ${ns}.${t}  ${rows} rows`)].join('\n'),
      };
    };
  },

  'lineage rebuild': (args) => async (target) => {
    const asked = str(args, 'org');
    if (asked && !(await target.orgs.get(asked))) throw new NotFoundError(`organization ${asked} does not exist`);
    const orgIds = asked ? [asked] : (await target.orgs.list()).map((org) => org.orgId);
    const { model, storedEvents } = target.lineage();
    const rebuilt = [];
    for (const orgId of orgIds) {
      const started = Date.now();
      const summary = await rebuildLineageModel(model, storedEvents, orgId);
      rebuilt.push({ orgId, events: summary.events, generation: summary.generation, seconds: (Date.now() - started) / 1000 });
    }
    return {
      json: rebuilt,
      text: rebuilt.map((r) => `Rebuilt the lineage graph of organization ${r.orgId} from ${r.events} events in ${r.seconds.toFixed(1)} s.`).join('\n') || 'No organizations.',
    };
  },

  'feed replay': (args) => {
    const name = str(args, 'subscriber') as string;
    const fromText = str(args, 'from') as string;
    const from = Date.parse(fromText);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(fromText) || Number.isNaN(from)) throw new UsageError(`--from must be an ISO 8601 time such as 2026-11-27T09:30:00Z, got "${fromText}"`, { command: args.command });
    return async (target) => {
      const feed = target.feed();
      let subscriber;
      try {
        subscriber = subscriberNamed(feed, name);
      } catch (err) {
        throw new UsageError(`--subscriber: ${(err as Error).message}`, { command: args.command });
      }
      const asked = str(args, 'org');
      if (asked && !(await target.orgs.get(asked))) throw new NotFoundError(`organization ${asked} does not exist`);
      const orgIds = asked ? [asked] : (await target.orgs.list()).map((org) => org.orgId);
      const replayed = [];
      for (const orgId of orgIds) replayed.push(await replayFeed(feed, subscriber, orgId, from));
      const since = new Date(from).toISOString();
      return {
        json: replayed.map((r) => ({ subscriber: name, from: since, ...r })),
        text: replayed.map((r) => `Replayed ${r.events} events of organization ${r.orgId} since ${since} to ${name} in ${r.batches} batches.`).join('\n') || 'No organizations.',
      };
    };
  },

  'sessions create': (args) => {
    const orgId = str(args, 'org') as string;
    const ttlSeconds = ttl(args);
    return async (target) => {
      const now = new Date();
      const secret = await target.sessionSecret();
      const cookie = await createSession(target.orgs, orgId, secret, ttlSeconds, now);
      // Read the expiry back from the token itself rather than recomputing it.
      const verdict = verifySessionToken(cookie, secret, now);
      const expiresAt = verdict.ok ? new Date(verdict.claims.exp * 1000).toISOString() : '';
      const header = `Cookie: ${SESSION_COOKIE}=${cookie}`;
      return {
        json: { orgId, cookieName: SESSION_COOKIE, cookie, header, expiresAt },
        text: [`Session for organization ${orgId}, valid until ${expiresAt}.`, 'Cookie value:', cookie, 'Header:', header].join('\n'),
      };
    };
  },
};
