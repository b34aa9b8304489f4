/**
 * @module nag
 * Helpers for acknowledging cdk-nag findings. cdk-nag 3 acknowledges each finding of a multi-finding
 * rule (IAM5) individually, by the flattened text of the offending resource (`<Table.Arn>/index/*`);
 * these helpers compute that text from the same token the grant used, so an acknowledgement can
 * never drift from the statement it covers.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** The shortest reason an acknowledgement may carry (the tests hold every reason to it). */
export const MIN_REASON_LENGTH = 20;

/**
 * Acknowledges a cdk-nag rule (or one finding of it) on a construct and everything below it.
 * @throws when the reason is too short to explain anything
 */
export const acknowledge = (scope: IConstruct, id: string, reason: string): void => {
  if (reason.trim().length < MIN_REASON_LENGTH) throw new Error(`cdk-nag acknowledgement ${id} on ${scope.node.path} needs a real reason`);
  Validations.of(scope).acknowledge({ id, reason });
};

/**
 * Flattens a resolved CloudFormation expression the way cdk-nag does when it names an IAM5 finding:
 * `{"Fn::GetAtt": ["T", "Arn"]}` → `<T.Arn>`, `{"Ref": "B"}` → `<B>`, joins concatenated.
 */
const flatten = (node: unknown): string => {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    const join = record['Fn::Join'];
    if (Array.isArray(join)) return (join[1] as unknown[]).map(flatten).join(join[0] as string);
    if ('Fn::Sub' in record) return flatten(record['Fn::Sub']);
    const getAtt = record['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return `<${flatten(getAtt[0])}.${flatten(getAtt[1])}>`;
    if ('Ref' in record) return `<${flatten(record.Ref)}>`;
  }
  return JSON.stringify(node);
};

/**
 * Acknowledges the AwsSolutions-IAM5 finding for one wildcard resource of a policy attached to
 * `scope` (usually a role: the finding is raised on its DefaultPolicy, which sits below it).
 * @param resource the resource exactly as it was granted, tokens included (`${table.tableArn}/index/*`)
 */
export const acknowledgeWildcardResource = (scope: IConstruct, resource: string, reason: string): void => {
  const flat = flatten(Stack.of(scope).resolve(resource));
  if (!flat.includes('*')) throw new Error(`${flat} has no wildcard; nothing to acknowledge`);
  acknowledge(scope, `AwsSolutions-IAM5[Resource::${flat}]`, reason);
};
