/**
 * @module iam-statements
 * Test helper: the IAM permissions a role really holds in a synthesized template, flattened to
 * (action, resource) pairs with resources named by the logical id they point at, so a test can
 * assert "these tables, this access, nothing else" without caring how CDK grouped statements.
 */
import type { Template } from 'aws-cdk-lib/assertions';

/** One permission: an action allowed on one resource. */
export interface Grant {
  readonly action: string;
  /**
   * The resource: `*`, a logical id (`DataEventsB3DAF25C`, meaning its ARN or Ref), or a logical
   * id with a literal suffix (`DataEventsB3DAF25C/index/*`).
   */
  readonly resource: string;
}

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Names a resource expression by the logical id it references; throws on shapes the helper does not know. */
export const describeResource = (expr: unknown): string => {
  if (expr === '*') return '*';
  if (isJson(expr)) {
    const getAtt = expr['Fn::GetAtt'];
    if (Array.isArray(getAtt) && getAtt[1] === 'Arn' && typeof getAtt[0] === 'string') return getAtt[0];
    // Another attribute's ARN (a table's `StreamArn`): the logical id and the attribute.
    if (Array.isArray(getAtt) && typeof getAtt[0] === 'string' && typeof getAtt[1] === 'string') return `${getAtt[0]}.${getAtt[1]}`;
    if (typeof expr.Ref === 'string') return expr.Ref;
    const join = expr['Fn::Join'];
    if (Array.isArray(join) && join[0] === '' && Array.isArray(join[1])) {
      return (join[1] as unknown[]).map((part) => (typeof part === 'string' ? part : describeResource(part))).join('');
    }
  }
  throw new Error(`unexpected IAM resource expression ${JSON.stringify(expr)}`);
};

/**
 * Every (action, resource) pair the role's policies allow: the inline policies of the role and
 * every AWS::IAM::Policy attached to it. Throws on Deny statements, conditions and NotAction /
 * NotResource, none of which the stack should use.
 */
export const grantsOfRole = (template: Template, roleLogicalId: string): Grant[] => {
  const documents: unknown[] = [];
  const role = template.findResources('AWS::IAM::Role')[roleLogicalId] as Json | undefined;
  if (!role) throw new Error(`no role ${roleLogicalId}`);
  const roleProps = (role.Properties ?? {}) as Json;
  if (roleProps.ManagedPolicyArns !== undefined) throw new Error(`role ${roleLogicalId} has managed policies: ${JSON.stringify(roleProps.ManagedPolicyArns)}`);
  for (const policy of asArray(roleProps.Policies ?? [])) documents.push((policy as Json).PolicyDocument);
  for (const policy of Object.values(template.findResources('AWS::IAM::Policy')) as Json[]) {
    const props = policy.Properties as Json;
    const attached = asArray(props.Roles).some((r) => isJson(r) && r.Ref === roleLogicalId);
    if (attached) documents.push(props.PolicyDocument);
  }
  const grants: Grant[] = [];
  for (const document of documents) {
    for (const statement of asArray((document as Json).Statement) as Json[]) {
      if (statement.Effect !== 'Allow') throw new Error(`unexpected ${String(statement.Effect)} statement`);
      for (const key of ['Condition', 'NotAction', 'NotResource']) {
        if (statement[key] !== undefined) throw new Error(`unexpected ${key} in ${JSON.stringify(statement)}`);
      }
      for (const action of asArray(statement.Action)) {
        for (const resource of asArray(statement.Resource)) grants.push({ action: action as string, resource: describeResource(resource) });
      }
    }
  }
  return grants;
};

/** `dynamodb:` actions that only read. Anything else on a table writes (or worse). */
export const DYNAMODB_READ_ACTIONS: ReadonlySet<string> = new Set([
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:Query',
  'dynamodb:Scan',
]);

/** `dynamodb:` actions that write items; a grant outside reads and these is never expected. */
export const DYNAMODB_WRITE_ACTIONS: ReadonlySet<string> = new Set([
  'dynamodb:BatchWriteItem',
  'dynamodb:DeleteItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
]);
