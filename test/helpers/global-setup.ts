/**
 * Starts one local stack for the whole test run; HTTP suites read its details with
 * `inject('stack')`. Suites that need their own stack (restarts) start one with
 * local-stack-process.ts. Also starts the AWS emulator (moto, test/aws/emulator.ts) that the AWS
 * profile's suites reach with `inject('aws')`, with the service's tables created in its DynamoDB.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildLayer, REPO_ROOT } from '../../layers/duckdb/build.ts';
import { buildLakeWriter, lakeWriterBuildIsCurrent } from '../../layers/lakewriter/build.ts';
import { ensureConsoleBuilt } from '../../scripts/build-console.mjs';
import { startStackProcess, tempHome, type StackInfo, type StackProcess } from './local-stack-process.ts';
import { startAwsEmulator, type AwsEmulator, type AwsEmulatorInfo } from '../aws/emulator.ts';
import { createEmulatedTables } from '../aws/tables.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
    aws: AwsEmulatorInfo;
  }
}

let stack: StackProcess | undefined;
let emulator: AwsEmulator | undefined;
let runTempDir: string | undefined;

/**
 * Gives the whole run one temporary directory, removed at teardown. Suites, stack processes and
 * the tools they start (CDK's cloud assemblies, DuckDB, Python) create their files under
 * `os.tmpdir()`, which reads TMPDIR; before this, each run left about 3 GB (its peak, measured) of synthesized
 * assemblies and stack homes in /tmp, and repeated runs filled the disk.
 */
const useRunTempDir = (): void => {
  runTempDir = mkdtempSync(path.join(tmpdir(), 'lakeline-test-run-'));
  process.env.TMPDIR = runTempDir;
};

/**
 * The CDK suites synthesize the stack, whose lake construct needs the DuckDB layer and the lake
 * writer's code; built here once, before suites run in parallel and could build them twice at once.
 */
const buildLambdaArtifacts = (): void => {
  const layer = path.join(REPO_ROOT, 'layers', 'duckdb', 'dist');
  if (!existsSync(path.join(layer, 'layer-manifest.json'))) buildLayer(layer);
  const writer = path.join(REPO_ROOT, 'layers', 'lakewriter', 'dist');
  if (!lakeWriterBuildIsCurrent(writer)) buildLakeWriter(writer);
};

export async function setup(project: TestProject): Promise<void> {
  useRunTempDir();
  buildLambdaArtifacts();
  const starting = startAwsEmulator();
  // The browser suites test the current console, and the CDK suites deploy it: built (when stale) before either runs.
  ensureConsoleBuilt({ quiet: true });
  // The shared stack runs every Spark job on the per-run path (a JVM each), which its suites
  // supervise process by process; the warm driver (ADR 0059) has its own suite and stack.
  stack = await startStackProcess(tempHome('shared'), 0, { LAKELINE_SPARK_WARM_MAX_INPUT_BYTES: '0' });
  const { child: _child, stop: _stop, output: _output, ...info } = stack;
  project.provide('stack', info);
  emulator = await starting;
  const { stop: _stopEmulator, ...aws } = emulator;
  await createEmulatedTables(aws);
  project.provide('aws', aws);
}

export async function teardown(): Promise<void> {
  await Promise.all([stack?.stop(), emulator?.stop()]);
  if (runTempDir !== undefined) rmSync(runTempDir, { recursive: true, force: true });
}
