/**
 * @module notifications
 * `LakelineNotifications`: alert deliveries in AWS (issue 27, ADR 0054). An SQS FIFO queue whose
 * message group is a lane (an org, a destination and an alert: a later notice of an alert waits for
 * the earlier; lanes and orgs never wait for each other), read one message per invocation by the
 * delivery Lambda (`functions/handlers/deliver-notifications.ts`), which signs and sends it and
 * puts a failed attempt back with its backoff as the message's visibility timeout. A dead-letter
 * queue keeps messages whose delivery could not even be attempted after every receive. Functions
 * that queue deliveries (the test delivery route; the alerts side) are granted sending with
 * {@link LakelineNotifications.grantEnqueue}.
 */
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NOTIFICATIONS_QUEUE_URL_ENV } from '#composition/env-names';
import { MAX_ATTEMPTS } from '#domain/notifications/retry-policy';
import { NOTIFICATIONS_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineNotifications}. */
export interface LakelineNotificationsProps {
  /** The tables (Notifications: destinations and the delivery log). */
  readonly data: LakelineData;
  /** Functions that queue deliveries. @default - none */
  readonly senders?: readonly ServiceFunction[];
  /**
   * Receives of a message before it goes to the dead-letter queue. Each attempt is one receive, so
   * it must leave room for every attempt of the retry policy.
   * @default MAX_ATTEMPTS + 3
   */
  readonly maxReceiveCount?: number;
  /** Retention of the delivery function's log group. @default - the function's default */
  readonly logRetention?: logs.RetentionDays;
}

const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

/** The delivery function's timeout: one attempt waits at most 10 s for an answer (`retry-policy.ts`). */
const DELIVERY_TIMEOUT = Duration.seconds(30);

/** The delivery queue, its dead-letter queue and the delivery function. */
export class LakelineNotifications extends Construct {
  public readonly queue: sqs.Queue;
  public readonly deadLetterQueue: sqs.Queue;
  public readonly deliverer: ServiceFunction;

  constructor(scope: Construct, id: string, props: LakelineNotificationsProps) {
    super(scope, id);
    const maxReceiveCount = props.maxReceiveCount ?? MAX_ATTEMPTS + 3;
    if (!Number.isInteger(maxReceiveCount) || maxReceiveCount < MAX_ATTEMPTS) {
      throw new Error(`${this.node.path}: maxReceiveCount must be a whole number of at least ${MAX_ATTEMPTS} (one receive per attempt), not ${maxReceiveCount}`);
    }
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetters', { ...encrypted, fifo: true, retentionPeriod: Duration.days(14) });
    this.queue = new sqs.Queue(this, 'Deliveries', {
      ...encrypted,
      fifo: true,
      // Six times the function's timeout, as Lambda's SQS guide asks; a retry sets its own backoff.
      visibilityTimeout: Duration.seconds(DELIVERY_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount },
    });

    this.deliverer = new ServiceFunction(this, 'Deliverer', {
      handlerModule: 'deliver-notifications',
      memorySize: 256,
      timeout: DELIVERY_TIMEOUT,
      description: 'lakeline: signs and sends alert notices to webhook and Slack destinations',
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.deliverer.bindTable(props.data.table(NOTIFICATIONS_TABLE), 'RW');
    // One message per invocation: a lane's slow endpoint holds up no message of another lane, and
    // Lambda's FIFO poller runs as many lanes at once as have messages.
    this.deliverer.addEventSource(new SqsEventSource(this.queue, { batchSize: 1, reportBatchItemFailures: true }));
    // ChangeMessageVisibility: a failed attempt's backoff.
    this.queue.grantConsumeMessages(this.deliverer);
    this.deliverer.addEnvironment(NOTIFICATIONS_QUEUE_URL_ENV, this.queue.queueUrl);

    for (const fn of props.senders ?? []) this.grantEnqueue(fn);
  }

  /** Lets a function queue deliveries: sending to the queue, and the queue's URL in its environment. */
  grantEnqueue(fn: ServiceFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment(NOTIFICATIONS_QUEUE_URL_ENV, this.queue.queueUrl);
  }
}
