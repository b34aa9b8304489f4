/**
 * @module notifications.test
 * Assertions on the alert deliveries' part of the synthesized `Lakeline` template (ADR 0054): the
 * FIFO delivery queue with its dead-letter queue (room for every attempt of the retry policy), the
 * delivery function reading it one message per invocation with partial failures, its grants (the
 * Notifications table, the queue's receive, delete and visibility change), and the test delivery
 * route's function allowed to send to the queue and given its URL — the read routes not.
 */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATIONS_QUEUE_URL_ENV } from '#composition/env-names';
import { MAX_ATTEMPTS } from '#domain/notifications/retry-policy';
import { NOTIFICATIONS_TABLE } from '#shared/table-definitions';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { grantsOfRole } from './iam-statements.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';

let stack: LakelineStack;
let template: Template;

beforeAll(() => {
  ({ stack, template } = synthLakeline('notifications'));
});

const roleOf = (routeId: string): string => {
  const fn = stack.api.functions.get(routeId);
  if (!fn) throw new Error(`no function for ${routeId}`);
  return logicalIdOf(fn.executionRole);
};

describe('alert deliveries in the stack', () => {
  it('Should queue deliveries on a FIFO queue whose dead-letter queue leaves room for every attempt', () => {
    const queue = propertiesOf(template, logicalIdOf(stack.notifications.queue));
    expect(queue.FifoQueue).toBe(true);
    expect(queue.VisibilityTimeout).toBe(180);
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [logicalIdOf(stack.notifications.deadLetterQueue), 'Arn'] }, maxReceiveCount: MAX_ATTEMPTS + 3 });
    expect(propertiesOf(template, logicalIdOf(stack.notifications.deadLetterQueue)).FifoQueue).toBe(true);
  });

  it('Should deliver one message per invocation, with partial failures, from the delivery function', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: logicalIdOf(stack.notifications.deliverer) },
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(stack.notifications.queue), 'Arn'] },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('alert notices'),
      Environment: { Variables: Match.objectLike({ [NOTIFICATIONS_TABLE.envName]: Match.anyValue(), [NOTIFICATIONS_QUEUE_URL_ENV]: Match.anyValue() }) },
    });
  });

  it('Should grant the delivery function the Notifications table and the queue, the visibility change included', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.notifications.deliverer.executionRole));
    const actions = new Set(grants.map((g) => g.action));
    for (const action of ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query', 'sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility']) expect(actions).toContain(action);
  });

  it('Should let the test delivery route send to the queue, and no read route', () => {
    const queue = logicalIdOf(stack.notifications.queue);
    const sends = (routeId: string) => grantsOfRole(template, roleOf(routeId)).some((g) => g.action === 'sqs:SendMessage' && g.resource.startsWith(queue));
    expect(sends('PostWebhookTest')).toBe(true);
    for (const routeId of ['ListWebhooks', 'GetWebhook', 'ListWebhookDeliveries', 'CreateWebhook', 'DeleteWebhook']) expect(sends(routeId), routeId).toBe(false);
  });

  it('Should refuse a receive limit below the retry policy attempts', async () => {
    const { App, Stack } = await import('aws-cdk-lib');
    const { LakelineData } = await import('../../lib/data.ts');
    const { LakelineNotifications } = await import('../../lib/notifications.ts');
    const scope = new Stack(new App(), 'Bad');
    const data = new LakelineData(scope, 'Data');
    expect(() => new LakelineNotifications(scope, 'Notifications', { data, maxReceiveCount: 2 })).toThrow(/maxReceiveCount must be a whole number of at least 12/);
  });
});
