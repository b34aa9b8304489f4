/**
 * @module spec
 * The CLI's command table: every command with its options, positionals and help text. Parsing
 * (args.ts) and help (help.ts) both read this table, so a command's help cannot drift from what
 * it accepts.
 */

/** One option of a command, in the shape `node:util` parseArgs takes, plus its help text. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** Placeholder shown in help (`USD`, `ID`). String options only. */
  readonly value?: string;
  readonly help: string;
}

/** A command such as `orgs create`. */
export interface CommandSpec {
  readonly group: 'orgs' | 'keys' | 'sessions' | 'demo' | 'lineage' | 'feed';
  readonly action: string;
  readonly summary: string;
  /** Positional arguments after the action, all required. */
  readonly positionals: readonly { readonly name: string; readonly help: string }[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Options that must be given. */
  readonly required?: readonly string[];
  readonly examples: readonly string[];
}

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  profile: { type: 'string', value: 'local|aws', help: 'where the stores are (default: local)' },
  home: { type: 'string', value: 'DIR', help: 'local state directory (default: $LAKELINE_HOME or ./.lakeline); local profile' },
  stack: { type: 'string', value: 'NAME', help: 'CloudFormation stack to read table names from (default: Lakeline); aws profile' },
  region: { type: 'string', value: 'REGION', help: 'AWS region of the stack (default: the SDK default region); aws profile' },
  json: { type: 'boolean', help: 'print machine-readable JSON instead of text' },
  help: { type: 'boolean', short: 'h', help: 'show help' },
};

/** Global options that take a value (the pre-scan in args.ts must skip their values). */
export const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(
  Object.entries(GLOBAL_OPTIONS).flatMap(([name, o]) => (o.type === 'string' ? [`--${name}`, ...(o.short ? [`-${o.short}`] : [])] : [])),
);

const PLAN_VALUES = 'free|pro|enterprise';

/** Every command. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    group: 'orgs',
    action: 'create',
    summary: 'Create an organization',
    positionals: [],
    options: {
      name: { type: 'string', value: 'NAME', help: 'display name' },
      plan: { type: 'string', value: PLAN_VALUES, help: 'plan (default: free)' },
      'payment-method': { type: 'boolean', help: 'the organization has a payment method on file (metered engines need one)' },
      'credit-limit': { type: 'string', value: 'USD', help: "spend limit for metered engines (default: the plan's)" },
    },
    required: ['name'],
    examples: ['lakeline orgs create --name Acme --plan pro --payment-method'],
  },
  {
    group: 'orgs',
    action: 'list',
    summary: 'List organizations',
    positionals: [],
    options: {},
    examples: ['lakeline orgs list --json'],
  },
  {
    group: 'orgs',
    action: 'update',
    summary: "Change an organization's plan, payment method or credit limit",
    positionals: [{ name: 'ORG_ID', help: 'the organization to change' }],
    options: {
      name: { type: 'string', value: 'NAME', help: 'new display name' },
      plan: { type: 'string', value: PLAN_VALUES, help: 'new plan' },
      'payment-method': { type: 'string', value: 'true|false', help: 'whether a payment method is on file' },
      'credit-limit': { type: 'string', value: 'USD', help: 'new spend limit for metered engines' },
    },
    examples: ['lakeline orgs update 2f1c… --plan free --payment-method false'],
  },
  {
    group: 'keys',
    action: 'create',
    summary: 'Create an API key; the token is printed once',
    positionals: [],
    options: {
      org: { type: 'string', value: 'ORG_ID', help: 'organization the key belongs to' },
      name: { type: 'string', value: 'NAME', help: 'label for the key (default: default)' },
      'read-only': { type: 'boolean', help: 'the key reads only: no events sent, no table written, no run started or stopped (for agents and dashboards)' },
    },
    required: ['org'],
    examples: ['lakeline keys create --org 2f1c… --name airflow', 'lakeline keys create --org 2f1c… --name claude --read-only'],
  },
  {
    group: 'keys',
    action: 'list',
    summary: "List an organization's API keys (never their secrets)",
    positionals: [],
    options: { org: { type: 'string', value: 'ORG_ID', help: 'organization whose keys to list' } },
    required: ['org'],
    examples: ['lakeline keys list --org 2f1c…'],
  },
  {
    group: 'keys',
    action: 'revoke',
    summary: 'Revoke an API key',
    positionals: [{ name: 'KEY_ID', help: 'the key id (the part after ll_ in a token)' }],
    options: {},
    examples: ['lakeline keys revoke 9a0b1c2d3e4f5a6b'],
  },
  {
    group: 'sessions',
    action: 'create',
    summary: 'Create a session cookie (accepted by the events, routed query and legacy query endpoints)',
    positionals: [],
    options: {
      org: { type: 'string', value: 'ORG_ID', help: 'organization the session acts for' },
      ttl: { type: 'string', value: 'SECONDS', help: 'lifetime (default: 28800, at most 604800)' },
    },
    required: ['org'],
    examples: ['lakeline sessions create --org 2f1c… --ttl 3600'],
  },
  {
    group: 'demo',
    action: 'load',
    summary: "Write the eight TPC-H tables as Iceberg tables into an organization's lake (data from DuckDB's tpch generator)",
    positionals: [],
    options: {
      org: { type: 'string', value: 'ORG_ID', help: "organization whose lake gets the tables (default: the local stack's demo organization)" },
      scale: { type: 'string', value: 'SF', help: 'TPC-H scale factor, 0.001 to 100 (default: 0.01; SF 1 is 6 million lineitem rows)' },
      namespace: { type: 'string', value: 'NAME', help: 'namespace of the tables (default: tpch)' },
    },
    examples: ['lakeline demo load --scale 1', 'lakeline demo load --org 2f1c… --namespace tpch_sf01 --scale 0.1'],
  },
  {
    group: 'lineage',
    action: 'rebuild',
    summary: "Recompute an organization's lineage graph from its stored events (every organization without --org)",
    positionals: [],
    options: { org: { type: 'string', value: 'ORG_ID', help: 'organization whose graph to rebuild (default: every organization)' } },
    examples: ['lakeline lineage rebuild --org 2f1c…', 'lakeline lineage rebuild'],
  },
  {
    group: 'feed',
    action: 'replay',
    summary: 'Hand one event feed subscriber again every event stored at or after a time (every organization without --org); the other subscribers are not touched',
    positionals: [],
    options: {
      subscriber: { type: 'string', value: 'NAME', help: 'the subscriber to replay to (lineage-model, …)' },
      from: { type: 'string', value: 'TIME', help: 'replay events received at or after this ISO 8601 time' },
      org: { type: 'string', value: 'ORG_ID', help: 'organization whose events to replay (default: every organization)' },
    },
    required: ['subscriber', 'from'],
    examples: ['lakeline feed replay --subscriber lineage-model --from 2026-11-27T00:00:00Z', 'lakeline feed replay --subscriber lineage-model --from 2026-11-27T09:30:00Z --org 2f1c…'],
  },
];

/** The groups, in help order. */
export const GROUPS = ['orgs', 'keys', 'sessions', 'demo', 'lineage', 'feed'] as const;

/** Finds a command by group and action. */
export const findCommand = (group: string, action: string): CommandSpec | undefined =>
  COMMANDS.find((c) => c.group === group && c.action === action);
