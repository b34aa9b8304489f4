/**
 * @module deploy-check
 * `npm run deploy:check -- [--region R] [--live] [--stack Lakeline]`: what a region and an account
 * need before `cdk deploy Lakeline`, and what each of the stack's outputs is for. The checklist is
 * printed without any AWS credentials. With `--live`, each prerequisite that an API can tell is
 * also checked in the account the default credential chain reaches (CDK bootstrap, EMR Serverless
 * and Athena in the region, an existing stack's outputs); tested against the AWS emulator.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { AthenaClient, ListWorkGroupsCommand } from '@aws-sdk/client-athena';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { EMRServerlessClient, ListApplicationsCommand } from '@aws-sdk/client-emr-serverless';
import { ALL_TABLES } from '#shared/table-definitions';
import { STACK_NAME, STACK_OUTPUTS, tableOutputName } from '../lib/stack-outputs.ts';

/** One prerequisite: what it is, how to meet it, and (with `--live`) how its state is read. */
export interface Prerequisite {
  readonly name: string;
  readonly why: string;
  readonly how: string;
}

/** The prerequisites of a region, in the order a deployment meets them. */
export const prerequisites = (region: string): Prerequisite[] => [
  {
    name: 'CDK bootstrap',
    why: 'cdk deploy uploads the functions, layers, job code and container images to the bootstrap bucket and repository (stack CDKToolkit)',
    how: `npx cdk bootstrap aws://<account>/${region}, once per account and region`,
  },
  {
    name: 'Docker on the deploying machine',
    why: 'the polars sandboxes are container images (functions/polars/Dockerfile) that cdk deploy builds for linux/arm64 and pushes',
    how: 'a running Docker engine that can build arm64 images (Docker Desktop, or docker with QEMU/binfmt on x86-64)',
  },
  {
    name: 'Lake Formation off for the Glue catalog, or granted',
    why: 'lakeline reaches Glue and S3 with IAM policies only; under Lake Formation permissions its roles would see no database or table',
    how: 'in Lake Formation settings keep "Use only IAM access control" for new databases and tables (IAM_ALLOWED_PRINCIPALS), or grant the stack\'s function, lake writer, EMR and Athena roles ALL on the org_* databases and DATA_LOCATION_ACCESS on the warehouse bucket',
  },
  {
    name: `EMR Serverless in ${region}`,
    why: 'managed Spark and every write run as EMR Serverless job runs (release emr-7.12.0, arm64)',
    how: 'a region where EMR Serverless offers emr-7.x on arm64; the account\'s vCPU quota for EMR Serverless above the application\'s maximum (400 vCPU by default)',
  },
  {
    name: `Athena in ${region}`,
    why: 'bloom runs reads as Athena (engine version 3) queries over the Glue Iceberg tables',
    how: 'a region with Athena engine version 3; the stack creates its own workgroup (lakeline-bloom)',
  },
];

/** What each stack output is for. */
export const outputPurposes = (): { readonly output: string; readonly purpose: string }[] => [
  { output: STACK_OUTPUTS.apiUrl, purpose: 'the base URL of the API: clients call <ApiUrl>api/v1/… with an API key' },
  { output: STACK_OUTPUTS.blobBucketName, purpose: 'the bucket holding raw bodies of events above DynamoDB\'s 400 KB item limit (and the lake: warehouse/, runs/, polars-staging/)' },
  { output: STACK_OUTPUTS.sessionSecretArn, purpose: 'the secret signing session cookies: `lakeline sessions create --profile aws` reads it' },
  { output: STACK_OUTPUTS.lakeWriterFunctionName, purpose: 'the lake writer: `lakeline demo load --profile aws` invokes it' },
  { output: STACK_OUTPUTS.consoleUrl, purpose: 'the web console (CloudFront): open it in a browser and sign in with an API key; `<ConsoleUrl>api/…` reaches the API on the same origin' },
  ...ALL_TABLES.map((t) => ({ output: tableOutputName(t), purpose: `the ${t.id} table: \`lakeline orgs|keys --profile aws\` read and write it` })),
];

/** A live check's verdict. */
export interface LiveResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** AWS SDK clients of the live checks (region and credentials from the default chain). */
export interface LiveClients {
  readonly cloudformation: CloudFormationClient;
  readonly emr: EMRServerlessClient;
  readonly athena: AthenaClient;
}

const failure = (err: unknown): string => `${(err as Error).name ?? 'Error'}: ${(err as Error).message}`;

/** Checks what the account can tell: bootstrap, EMR Serverless, Athena, an existing stack. */
export const liveChecks = async (clients: LiveClients, stackName = STACK_NAME): Promise<LiveResult[]> => {
  const stack = async (name: string) => (await clients.cloudformation.send(new DescribeStacksCommand({ StackName: name }))).Stacks?.[0];
  const check = async (name: string, probe: () => Promise<string>): Promise<LiveResult> => {
    try {
      return { name, ok: true, detail: await probe() };
    } catch (err) {
      return { name, ok: false, detail: failure(err) };
    }
  };
  return [
    await check('CDK bootstrap', async () => `stack CDKToolkit is ${(await stack('CDKToolkit'))?.StackStatus ?? 'unknown'}`),
    await check('EMR Serverless', async () => `reachable (${(await clients.emr.send(new ListApplicationsCommand({ maxResults: 50 }))).applications?.length ?? 0} applications)`),
    await check('Athena', async () => `reachable (${(await clients.athena.send(new ListWorkGroupsCommand({}))).WorkGroups?.length ?? 0} workgroups)`),
    await check(`stack ${stackName}`, async () => {
      try {
        const found = await stack(stackName);
        return `${found?.StackStatus ?? 'unknown'}; ${(found?.Outputs ?? []).map((o) => `${o.OutputKey}=${o.OutputValue}`).join(', ') || 'no outputs'}`;
      } catch (err) {
        // Before the first deployment there is no stack yet: that is no failed prerequisite.
        if (/does not exist/.test((err as Error).message)) return 'not deployed yet';
        throw err;
      }
    }),
  ];
};

/** Whether a Docker engine answers on this machine. */
const dockerAnswers = (): boolean => {
  try {
    execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
};

/** Renders the checklist (and live results when there are any). */
export const renderChecklist = (region: string, docker: boolean, live?: readonly LiveResult[]): string => {
  const lines = [`lakeline deployment checklist for ${region}`, '', 'Prerequisites:'];
  for (const p of prerequisites(region)) lines.push(`  - ${p.name}`, `      why: ${p.why}`, `      how: ${p.how}`);
  lines.push('', `Docker on this machine: ${docker ? 'answers' : 'not found or not running (cdk deploy will fail at the polars images)'}`);
  if (live) {
    lines.push('', 'In the account (default credential chain):');
    for (const r of live) lines.push(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${r.detail}`);
    lines.push('  ?    Lake Formation: check `aws lakeformation get-data-lake-settings` (CreateDatabaseDefaultPermissions should hold IAM_ALLOWED_PRINCIPALS)');
  } else {
    lines.push('', 'Run with --live to check the account the default credential chain reaches.');
  }
  lines.push('', `Outputs of the ${STACK_NAME} stack:`);
  for (const o of outputPurposes()) lines.push(`  ${o.output}: ${o.purpose}`);
  lines.push('', 'Unverified against real AWS until a first deployment: see docs/reference/aws-verification.md.');
  return `${lines.join('\n')}\n`;
};

/** Entry point; returns the exit status (0, or 1 when a live check failed, 2 on a usage error). */
export const main = async (argv: readonly string[], env: NodeJS.ProcessEnv = process.env, out: (text: string) => void = (t) => process.stdout.write(t)): Promise<number> => {
  let values: { region?: string; live?: boolean; stack?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { region: { type: 'string' }, live: { type: 'boolean' }, stack: { type: 'string' } } }));
  } catch (err) {
    out(`deploy:check: ${(err as Error).message}\nusage: npm run deploy:check -- [--region R] [--live] [--stack Lakeline]\n`);
    return 2;
  }
  const region = values.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? env.CDK_DEFAULT_REGION ?? '<your region>';
  let live: LiveResult[] | undefined;
  if (values.live) {
    const config = { ...(values.region ? { region: values.region } : {}), maxAttempts: 2 };
    const clients = { cloudformation: new CloudFormationClient(config), emr: new EMRServerlessClient(config), athena: new AthenaClient(config) };
    live = await liveChecks(clients, values.stack ?? STACK_NAME);
    Object.values(clients).forEach((c) => c.destroy());
  }
  out(renderChecklist(region, dockerAnswers(), live));
  return live?.some((r) => !r.ok) ? 1 : 0;
};

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
