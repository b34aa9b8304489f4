/**
 * Starts one local stack for the whole test run; HTTP suites read its details with
 * `inject('stack')`. Suites that need their own stack (restarts) start one with
 * local-stack-process.ts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildLayer, REPO_ROOT } from '../../layers/duckdb/build.ts';
import { buildLakeWriter, lakeWriterBuildIsCurrent } from '../../layers/lakewriter/build.ts';
import { startStackProcess, tempHome, type StackInfo, type StackProcess } from './local-stack-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

let stack: StackProcess | undefined;

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
  // Stack processes inherit this: see vitest.config.ts.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  buildLambdaArtifacts();
  stack = await startStackProcess(tempHome('shared'));
  const { child: _child, stop: _stop, ...info } = stack;
  project.provide('stack', info);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
