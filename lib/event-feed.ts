/**
 * @module event-feed
 * `LakelineEventFeed`: the event feed in AWS (ADR 0045). The Events table's DynamoDB stream
 * (NEW_IMAGE) has one reader, the fan-out function (`functions/handlers/event-feed-fanout.ts`),
 * however many subscribers there are (DynamoDB Streams serves about two readers per shard); it puts
 * each batch's new events on one SQS FIFO queue per subscriber (message group = org, so each
 * subscriber sees an org's batches in order). Each subscriber's Lambda reads its own queue with
 * partial batch responses and has its own dead-letter queue, so a batch that fails for one
 * subscriber is retried for it alone. A subscriber is added with {@link LakelineEventFeed.addSubscriber}.
 */
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { feedQueueEnv } from '#composition/env-names';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import { acknowledge } from './nag.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineEventFeed}. */
export interface LakelineEventFeedProps {
  /** The tables (Events with its stream; Lineage, which keeps the feed's marks). */
  readonly data: LakelineData;
  /** Stream records per fan-out invocation. @default 100 */
  readonly batchSize?: number;
  /** How long Lambda gathers stream records before invoking the fan-out. @default Duration.seconds(1) */
  readonly maxBatchingWindow?: Duration;
  /** Batches of one shard in flight at once (records of one key stay in order). @default 2 */
  readonly parallelizationFactor?: number;
  /** Retries of a failing stream batch (each bisected) before its records go to the failure queue. @default 8 */
  readonly retryAttempts?: number;
  /** Retention of the fan-out's log group. @default - the function's default */
  readonly logRetention?: logs.RetentionDays;
}

/** How a subscriber reads its queue. */
export interface FeedSubscriberOptions {
  /** Receives of a message before it goes to the subscriber's dead-letter queue. @default 5 */
  readonly maxReceiveCount?: number;
  /** Messages per invocation (one message: one org's share of a stream batch; FIFO allows 10). @default 10 */
  readonly batchSize?: number;
}

/** A subscriber's queues. */
export interface FeedSubscription {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

const encrypted = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

/** The stream's fan-out and a FIFO queue per subscriber. */
export class LakelineEventFeed extends Construct {
  public readonly fanOut: ServiceFunction;
  /** Where the stream records the fan-out could not queue after every retry are kept (14 days). */
  public readonly failureQueue: sqs.Queue;
  private readonly subscriptions = new Map<string, FeedSubscription>();

  constructor(scope: Construct, id: string, private readonly props: LakelineEventFeedProps) {
    super(scope, id);
    this.fanOut = new ServiceFunction(this, 'FanOut', {
      handlerModule: 'event-feed-fanout',
      memorySize: 256,
      timeout: Duration.seconds(60),
      description: 'lakeline: puts new lineage events on each feed subscriber queue',
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    // The Lineage table keeps the feed's head per org (the lag is measured from it).
    this.fanOut.bindTable(props.data.table(LINEAGE_TABLE), 'RW');

    this.failureQueue = new sqs.Queue(this, 'Failures', { ...encrypted, retentionPeriod: Duration.days(14) });
    acknowledge(this.failureQueue, 'AwsSolutions-SQS3', 'This queue is itself the on-failure destination of the event feed fan-out; it keeps the records of batches that failed every retry.');

    this.fanOut.addEventSource(
      new DynamoEventSource(props.data.table(EVENTS_TABLE), {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: props.batchSize ?? 100,
        maxBatchingWindow: props.maxBatchingWindow ?? Duration.seconds(1),
        parallelizationFactor: props.parallelizationFactor ?? 2,
        retryAttempts: props.retryAttempts ?? 8,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        maxRecordAge: Duration.hours(24),
        onFailure: new SqsDlq(this.failureQueue),
        // Only new items; the event store never updates an event.
        filters: [lambda.FilterCriteria.filter({ eventName: lambda.FilterRule.isEqual('INSERT') })],
      }),
    );
  }

  /**
   * Adds a subscriber: its FIFO queue (filled by the fan-out) with a dead-letter queue of its own,
   * read by `fn` with partial batch responses. `fn` also gets read access to the Events table (it
   * reads the bodies of the keys a message holds) and the Lineage table (its marks).
   */
  addSubscriber(name: string, fn: ServiceFunction, options: FeedSubscriberOptions = {}): FeedSubscription {
    if (this.subscriptions.has(name)) throw new Error(`LakelineEventFeed: a subscriber named ${name} exists already`);
    const id = name.replace(/(^|-)([a-z])/g, (_, _dash: string, c: string) => c.toUpperCase());
    // cdk-nag recognises it as the queue's dead-letter queue (no SQS3 finding to acknowledge).
    const deadLetterQueue = new sqs.Queue(this, `${id}DeadLetters`, { ...encrypted, fifo: true, retentionPeriod: Duration.days(14) });
    // Six times the function's timeout, as Lambda's SQS guide asks, so a batch in flight is not handed out twice.
    const timeoutSeconds = fn.timeout?.toSeconds() ?? 30;
    const queue = new sqs.Queue(this, `${id}Queue`, {
      ...encrypted,
      fifo: true,
      visibilityTimeout: Duration.seconds(Math.min(43_200, timeoutSeconds * 6)),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: options.maxReceiveCount ?? 5 },
    });
    queue.grantSendMessages(this.fanOut);
    this.fanOut.addEnvironment(feedQueueEnv(name), queue.queueUrl);
    fn.bindTable(this.props.data.table(EVENTS_TABLE), 'RO');
    fn.addEventSource(new SqsEventSource(queue, { batchSize: options.batchSize ?? 10, reportBatchItemFailures: true }));
    const subscription = { queue, deadLetterQueue };
    this.subscriptions.set(name, subscription);
    return subscription;
  }

  /** A subscriber's queues. */
  subscription(name: string): FeedSubscription {
    const found = this.subscriptions.get(name);
    if (!found) throw new Error(`LakelineEventFeed: no subscriber named ${name}`);
    return found;
  }
}
