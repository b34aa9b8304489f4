/**
 * Starts one local stack for the whole test run; HTTP suites read its details with
 * `inject('stack')`. Suites that need their own stack (restarts) start one with
 * local-stack-process.ts.
 */
import type { TestProject } from 'vitest/node';
import { startStackProcess, tempHome, type StackInfo, type StackProcess } from './local-stack-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}

let stack: StackProcess | undefined;

export async function setup(project: TestProject): Promise<void> {
  stack = await startStackProcess(tempHome('shared'));
  const { child: _child, stop: _stop, ...info } = stack;
  project.provide('stack', info);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
