/**
 * @module synth
 * Test helper: synthesizes the whole `Lakeline` stack the way the template suites need it (the
 * project's cdk.json context, a fixed account and region, bundling off — they assert the
 * template, not function code) and names resources by logical id.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { LakelineStack, type LakelineStackProps } from '../../lib/lakeline-stack.ts';

type Json = Record<string, unknown>;

/** The stack (with `props` beside the fixed environment) and its template, bundling off. */
export const synthLakeline = (label: string, props: Omit<LakelineStackProps, 'env'> = {}): { stack: LakelineStack; template: Template } => {
  const context = (JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context?: Json }).context ?? {};
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [] }, outdir: mkdtempSync(path.join(tmpdir(), `lakeline-cdk-${label}-`)) });
  const stack = new LakelineStack(app, 'Lakeline', { ...props, env: { account: '123456789012', region: 'eu-west-1' } });
  return { stack, template: Template.fromStack(stack) };
};

/** The logical id of a construct's CloudFormation resource. */
export const logicalIdOf = (construct: IConstruct): string => {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).resolve(element.logicalId) as string;
};

/** The `Properties` of a resource of the template. */
export const propertiesOf = (template: Template, logicalId: string): Json =>
  ((template.toJSON() as { Resources: Record<string, { Properties?: Json }> }).Resources[logicalId]?.Properties ?? {}) as Json;
