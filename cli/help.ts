/**
 * @module help
 * Help text, rendered from the command table (spec.ts).
 */
import type { HelpTopic } from './args.ts';
import { COMMANDS, GLOBAL_OPTIONS, GROUPS, type CommandSpec, type OptionSpec } from './spec.ts';

const optionLines = (options: Readonly<Record<string, OptionSpec>>, required: readonly string[] = []): string[] => {
  const rows = Object.entries(options).map(([name, o]) => ({
    left: `${o.short ? `-${o.short}, ` : '    '}--${name}${o.value ? ` ${o.value}` : ''}`,
    right: `${o.help}${required.includes(name) ? ' (required)' : ''}`,
  }));
  const width = Math.max(0, ...rows.map((r) => r.left.length));
  return rows.map((r) => `  ${r.left.padEnd(width)}  ${r.right}`);
};

const usageLine = (c: CommandSpec): string => {
  const positionals = c.positionals.map((p) => ` ${p.name}`).join('');
  const options = Object.entries(c.options)
    .map(([name, o]) => {
      const text = `--${name}${o.value ? ` ${o.value}` : ''}`;
      return c.required?.includes(name) ? ` ${text}` : ` [${text}]`;
    })
    .join('');
  return `lakeline ${c.group} ${c.action}${positionals}${options} [global options]`;
};

const commandList = (commands: readonly CommandSpec[]): string[] => {
  const width = Math.max(...commands.map((c) => `${c.group} ${c.action}`.length));
  return commands.map((c) => `  ${`${c.group} ${c.action}`.padEnd(width)}  ${c.summary}`);
};

const GLOBAL_SECTION = ['Global options:', ...optionLines(GLOBAL_OPTIONS)];

const PROFILES = [
  'Profiles:',
  '  local  the local stack\'s DynamoDB: the running stack\'s (from <home>/local.json) when it answers,',
  '         otherwise one started on <home>\'s data for the duration of the command.',
  '  aws    the deployed stack: table names and the session secret come from its CloudFormation',
  '         outputs; credentials and region from the usual AWS SDK sources.',
];

const EXIT = ['Exit status: 0 success, 1 failure (e.g. unknown organization, store unreachable), 2 usage error.'];

/** The help text for a topic. */
export const renderHelp = (topic: HelpTopic): string => {
  if (topic.command) {
    const c = topic.command;
    return [
      `${c.summary}.`,
      '',
      `Usage: ${usageLine(c)}`,
      ...(c.positionals.length ? ['', 'Arguments:', ...c.positionals.map((p) => `  ${p.name}  ${p.help}`)] : []),
      ...(Object.keys(c.options).length ? ['', 'Options:', ...optionLines(c.options, c.required)] : []),
      '',
      ...GLOBAL_SECTION,
      '',
      'Example:',
      ...c.examples.map((e) => `  ${e}`),
      '',
    ].join('\n');
  }
  const commands = topic.group ? COMMANDS.filter((c) => c.group === topic.group) : COMMANDS;
  return [
    'lakeline: manage organizations, API keys and sessions of a lakeline deployment, load demo data into its lake, rebuild its lineage graph and replay its event feed to a subscriber.',
    '',
    `Usage: lakeline ${topic.group ?? `<${GROUPS.join('|')}>`} <action> [options]`,
    '',
    'Commands:',
    ...commandList(commands),
    '',
    ...GLOBAL_SECTION,
    '',
    ...PROFILES,
    '',
    ...EXIT,
    'Run `lakeline <command> <action> --help` for the options of one command.',
    // Dispatched by bin/lakeline.mjs before this CLI loads: its stdout is the protocol's alone.
    ...(topic.group ? [] : ['', 'lakeline mcp: the MCP server over stdio (LAKELINE_URL, LAKELINE_API_KEY); see the README\'s Agents (MCP) section.']),
    '',
  ].join('\n');
};
