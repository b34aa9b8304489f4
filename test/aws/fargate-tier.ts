/**
 * @module fargate-tier
 * A polars Fargate tier in the emulated account, built from what the CDK construct
 * (`lib/polars-fargate.ts`) synthesizes: its queue and dead-letter queue with the template's
 * attributes, the results prefix in the lake's bucket, the environment of a caller function and of
 * the task's container (references resolved to the emulated resources). What ECS would do — start
 * the image's `python3 -m lakeline_polars.task_runner` as root in a task of its own — is played by
 * {@link startTaskRunner}: the real runner from the repository's polars environment, in a PID and
 * mount namespace of its own with a private `/tmp` (the task's scratch volume), with the container's
 * environment plus the emulator's endpoint and credentials.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { acknowledge } from '../../lib/nag.ts';
import { LakelinePolarsFargate, type FargateTier } from '../../lib/polars-fargate.ts';
import { LakelineWarehouse } from '../../lib/warehouse.ts';
import { TestFunction } from '../cdk/test-function.ts';
import type { EmulatedLake } from './emulated-lake.ts';
import { awsClientConfig, awsEnvironment, LAMBDA_RUNTIME_PACKAGES, REPO_ROOT, type AwsEmulatorInfo } from './emulator.ts';
import { PRODUCT_PYTHON } from './lambda-stand-in.ts';

type Json = Record<string, unknown>;
interface Resource {
  readonly Type: string;
  readonly Properties: Json;
}

/** What the construct builds for one tier, synthesized. */
interface SynthesizedTier {
  readonly resources: Readonly<Record<string, Resource>>;
  readonly queueId: string;
  readonly deadLetterQueueId: string;
  /** The task's container environment, unresolved. */
  readonly containerEnvironment: Readonly<Record<string, unknown>>;
  /** The caller function's environment, unresolved. */
  readonly callerEnvironment: Readonly<Record<string, unknown>>;
}

/** Synthesizes the construct with one warm task of `tier`, in a stack of the emulated region. */
const synthesizeTier = (tier: FargateTier, region: string): SynthesizedTier => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'lakeline-fargate-cdk-'));
  const stack = new Stack(new App({ outdir }), 'PolarsFargateTier', { env: { account: '123456789012', region } });
  const logBucket = new s3.Bucket(stack, 'Logs', { enforceSSL: true });
  acknowledge(logBucket, 'AwsSolutions-S1', 'The access-log bucket itself, in this test stack.');
  const warehouse = new LakelineWarehouse(stack, 'Warehouse', { accessLogBucket: logBucket });
  const vpc = new ec2.Vpc(stack, 'Vpc', { natGateways: 0, maxAzs: 1, subnetConfiguration: [{ name: 'sandbox', subnetType: ec2.SubnetType.PRIVATE_ISOLATED }] });
  new LakelinePolarsFargate(stack, 'PolarsFargate', {
    warehouse,
    network: { vpc, subnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED }, securityGroup: new ec2.SecurityGroup(stack, 'SandboxSg', { vpc, allowAllOutbound: false }) },
    callers: [new TestFunction(stack, 'Caller')],
    warmTasks: { [tier]: 1 },
    // Nothing is built or staged: the image is what this test does not run.
    image: ecs.ContainerImage.fromRegistry('public.ecr.aws/lambda/python:3.12'),
  });
  const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
  rmSync(outdir, { recursive: true, force: true });
  const ofType = (type: string): [string, Resource][] => Object.entries(resources).filter(([, r]) => r.Type === type);
  const queues = ofType('AWS::SQS::Queue');
  const queueId = queues.find(([, r]) => r.Properties.RedrivePolicy)?.[0];
  const deadLetterQueueId = queues.find(([, r]) => !r.Properties.RedrivePolicy)?.[0];
  const [task] = ofType('AWS::ECS::TaskDefinition');
  const caller = ofType('AWS::Lambda::Function').find(([id]) => id.startsWith('Caller'));
  if (!queueId || !deadLetterQueueId || !task || !caller) throw new Error('the synthesized tier lacks its queues, task definition or caller');
  const [container] = task[1].Properties.ContainerDefinitions as { Environment: { Name: string; Value: unknown }[] }[];
  return {
    resources,
    queueId,
    deadLetterQueueId,
    containerEnvironment: Object.fromEntries((container?.Environment ?? []).map((v) => [v.Name, v.Value])),
    callerEnvironment: ((caller[1].Properties.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) as Json,
  };
};

/** Resolves the template's `Ref` / `Fn::GetAtt … Arn` to emulated resources; anything else is a fault of this helper. */
const resolver =
  (values: Readonly<Record<string, { ref: string; arn?: string }>>) =>
  (value: unknown): unknown => {
    const resolve = resolver(values);
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const o = value as Json;
    if (typeof o.Ref === 'string') {
      const found = values[o.Ref];
      if (!found) throw new Error(`the template refers to ${o.Ref}, which this test does not emulate`);
      return found.ref;
    }
    if (Array.isArray(o['Fn::GetAtt'])) {
      const [id, attribute] = o['Fn::GetAtt'] as [string, string];
      const arn = values[id]?.arn;
      if (attribute !== 'Arn' || !arn) throw new Error(`the template asks for ${id}.${attribute}, which this test does not emulate`);
      return arn;
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, resolve(v)]));
  };

/** SQS `CreateQueue` attributes from an `AWS::SQS::Queue`'s properties (same names, strings). */
const queueAttributes = (properties: Json, resolve: (v: unknown) => unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(properties)
      .filter(([name]) => name !== 'QueueName' && name !== 'Tags')
      .map(([name, value]) => {
        const resolved = resolve(value);
        return [name, typeof resolved === 'object' ? JSON.stringify(resolved) : String(resolved)];
      }),
  );

/** A tier in the emulated account. */
export interface EmulatedFargateTier {
  readonly vcpus: FargateTier;
  readonly queueUrl: string;
  /** The caller function's environment as the construct sets it (queue URL, results bucket and prefix). */
  readonly callerEnvironment: Readonly<Record<string, string>>;
  /** The task's container environment as the task definition sets it. */
  readonly containerEnvironment: Readonly<Record<string, string>>;
  /** The queue's visible and in-flight message counts. */
  queueDepth(): Promise<{ visible: number; inFlight: number }>;
  close(): void;
}

const asStrings = (env: Readonly<Record<string, unknown>>, resolve: (v: unknown) => unknown): Record<string, string> =>
  Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(resolve(value))]));

/** Creates the tier's queues in the emulator as the construct configures them, over the lake's bucket. */
export const createFargateTier = async (aws: AwsEmulatorInfo, lake: EmulatedLake, vcpus: FargateTier): Promise<EmulatedFargateTier> => {
  const synthesized = synthesizeTier(vcpus, aws.region);
  const sqs = new SQSClient(awsClientConfig(aws));
  const name = `${lake.bucket}-polars-${vcpus}`;
  const values: Record<string, { ref: string; arn?: string }> = {};
  for (const [id, r] of Object.entries(synthesized.resources)) {
    if (r.Type === 'AWS::S3::Bucket' && id.startsWith('Warehouse')) values[id] = { ref: lake.bucket, arn: `arn:aws:s3:::${lake.bucket}` };
  }
  const create = async (id: string, queueName: string): Promise<void> => {
    const resource = synthesized.resources[id] as Resource;
    const created = await sqs.send(new CreateQueueCommand({ QueueName: queueName, Attributes: queueAttributes(resource.Properties, resolver(values)) }));
    const attributes = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }));
    values[id] = { ref: created.QueueUrl as string, arn: attributes.Attributes?.QueueArn as string };
  };
  await create(synthesized.deadLetterQueueId, `${name}-dead-letters`);
  await create(synthesized.queueId, name);
  const resolve = resolver(values);
  const queueUrl = values[synthesized.queueId]?.ref as string;
  return {
    vcpus,
    queueUrl,
    callerEnvironment: asStrings(synthesized.callerEnvironment, resolve),
    containerEnvironment: asStrings(synthesized.containerEnvironment, resolve),
    queueDepth: async () => {
      const out = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }));
      return { visible: Number(out.Attributes?.ApproximateNumberOfMessages), inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible) };
    },
    close: () => sqs.destroy(),
  };
};

/** The running task runner. */
export interface TaskRunner {
  /** Its process id (as this machine sees it). */
  readonly pid: number;
  /** What it logged so far. */
  log(): string;
  /** Pauses it (SIGSTOP): no warm task takes messages. */
  pause(): void;
  resume(): void;
  /** SIGTERM, as ECS stops a task; resolves with its exit code once it exited (after the long poll in progress, up to 20 s, ends). */
  stop(): Promise<number | null>;
  /** Kills the task (its namespace) whatever state it is in. */
  kill(): Promise<void>;
}

/** The children of a process (`/proc/<pid>/task/<pid>/children`). */
const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};
const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

const RUNNER_MODULE = 'lakeline_polars.task_runner';

/** Where the polars environment's interpreter is installed (`sys.base_prefix`). */
const pythonInstallation = (): string => execFileSync(PRODUCT_PYTHON, ['-c', 'import sys; print(sys.base_prefix)'], { encoding: 'utf8' }).trim();

/**
 * Starts `python -m lakeline_polars.task_runner` as ECS starts the task: as root, in a PID
 * namespace of its own under an init that reaps orphans (the task definition's
 * `initProcessEnabled`), with a private `/tmp` (the task's scratch volume; the runner wipes and
 * re-owns `/tmp/lakeline-polars` before every run, which must not touch this machine's), and with
 * the container's environment; the emulator's endpoint, region and credentials stand where ECS
 * gives the task role's (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI`). `PYTHONPATH` is the image's
 * layout here: the package's directory and the runtime's boto3 (the Lambda base image has it).
 * Its killing of the sandbox uid's processes (`kill(-1)` as that uid) stays inside the namespace.
 */
export const startTaskRunner = async (aws: AwsEmulatorInfo, tier: EmulatedFargateTier): Promise<TaskRunner> => {
  // ECS starts the runner as root (the task definition's `user: '0'`), and the runner refuses to start otherwise.
  if (process.getuid?.() !== 0) throw new Error('the Fargate task runner suite must run as root (the runner starts each worker as the sandbox uid); CI and the development machine do');
  const codeDir = path.join(REPO_ROOT, 'functions', 'polars');
  const scratch = mkdtempSync(path.join(tmpdir(), 'lakeline-fargate-task-'));
  const taskTmp = path.join(scratch, 'tmp');
  const stash = path.join(scratch, 'interpreter');
  mkdirSync(taskTmp);
  // Like any /tmp: the runner (root) creates the worker's directory in it, which the worker must reach.
  chmodSync(taskTmp, 0o1777);
  mkdirSync(stash);
  const environment = {
    ...tier.containerEnvironment,
    ...awsEnvironment(aws),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    PYTHONPATH: `${codeDir}:${LAMBDA_RUNTIME_PACKAGES}`,
  };
  const interpreter = pythonInstallation();
  // In the image the interpreter (/var/lang) is readable by every uid. Here it may be installed under
  // root's home (pyenv), which the sandbox uid cannot enter: in the task's mount namespace /root is
  // then an empty world-readable directory holding only that installation, bound at its own path.
  const exposeInterpreter = interpreter.startsWith('/root/')
    ? `mount --bind "$2" "$3" && mount -t tmpfs -o mode=0755 tmpfs /root && mkdir -p "$2" && mount --move "$3" "$2" || exit 97; `
    : '';
  // A checkout under /tmp (a CI clone there) would vanish behind the task's private /tmp: it is bound
  // aside first (a tmpfs on /mnt, visible only in the namespace) and bound back at its own path inside.
  const keepCheckout = REPO_ROOT.startsWith('/tmp/')
    ? { before: 'mount -t tmpfs tmpfs /mnt && mkdir /mnt/checkout && mount --bind "$4" /mnt/checkout || exit 97; ', after: 'mkdir -p "$4" && mount --move /mnt/checkout "$4" || exit 97; ' }
    : { before: '', after: '' };
  // setpriv: the task dies with this test's process; unshare: its own PID and mount namespaces; sh is
  // the namespace's init (it reaps what the runner's killed workers leave) and binds the scratch to
  // /tmp; its arguments: $0 the polars environment's python, $1 the scratch, $2 and $3 the
  // interpreter's installation and a mount point, $4 the checkout.
  const child: ChildProcess = spawn(
    'setpriv',
    [
      '--pdeathsig', 'KILL', 'unshare', '--mount', '--pid', '--fork', '--mount-proc', '--kill-child', '--',
      'sh', '-c', `${exposeInterpreter}${keepCheckout.before}mount --bind "$1" /tmp || exit 97; ${keepCheckout.after}"$0" -m ${RUNNER_MODULE} & wait $!`,
      PRODUCT_PYTHON, taskTmp, interpreter, stash, REPO_ROOT.replace(/\/$/, ''),
    ],
    { cwd: codeDir, env: environment, stdio: ['ignore', 'inherit', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-200_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Ready once it serves the queue (its first worker is importing polars meanwhile).
  const started = Date.now();
  const cleanUp = (): void => rmSync(scratch, { recursive: true, force: true });
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    cleanUp();
  };
  while (!log.includes(`serving ${tier.queueUrl}`)) {
    if (child.exitCode !== null || Date.now() - started > 30_000) {
      await kill();
      throw new Error(`the task runner did not start: ${log.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const runnerPid = childrenOf(child.pid as number)
    .flatMap(childrenOf)
    .find((pid) => commandOf(pid).includes(`-m ${RUNNER_MODULE}`) && !commandOf(pid).includes('--worker'));
  if (runnerPid === undefined) {
    await kill();
    throw new Error('the task runner process was not found in its namespace');
  }
  return {
    pid: runnerPid,
    log: () => log,
    pause: () => process.kill(runnerPid, 'SIGSTOP'),
    resume: () => process.kill(runnerPid, 'SIGCONT'),
    stop: async () => {
      process.kill(runnerPid, 'SIGTERM');
      const code = await exited;
      cleanUp();
      return code;
    },
    kill,
  };
};
