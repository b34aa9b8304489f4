/**
 * @module lineage-graph
 * `LakelineLineageGraph`: the lineage read model's consumer (ADR 0031). The Events table's
 * DynamoDB stream (NEW_IMAGE) feeds a Lambda (`functions/handlers/lineage-model-consumer.ts`) in
 * small batches with partial batch responses, bisection of a failing batch, bounded retries and an
 * SQS queue that keeps what could not be applied (rebuild recomputes the model from the stored
 * events either way). The read endpoints get read access to the Lineage table from the route table.
 */
import { Duration } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENTS_TABLE, LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import { acknowledge } from './nag.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineLineageGraph}. */
export interface LakelineLineageGraphProps {
  /** The tables (Events with its stream, Lineage) and the blob bucket. */
  readonly data: LakelineData;
  /** Records per invocation: small, so an event is in the graph within moments. @default 100 */
  readonly batchSize?: number;
  /** How long Lambda gathers records before invoking. @default Duration.seconds(1) */
  readonly maxBatchingWindow?: Duration;
  /** Batches of one shard in flight at once (batches of one org may then overlap: merges converge). @default 2 */
  readonly parallelizationFactor?: number;
  /** Retries of a failing batch (each bisected) before its records go to the failure queue. @default 8 */
  readonly retryAttempts?: number;
  /** Retention of the consumer's log group. @default - the function's default */
  readonly logRetention?: logs.RetentionDays;
}

/** The stream consumer of the lineage read model. */
export class LakelineLineageGraph extends Construct {
  public readonly consumer: ServiceFunction;
  /** Where the stream records that could not be applied after every retry are kept (14 days). */
  public readonly failureQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: LakelineLineageGraphProps) {
    super(scope, id);
    const events = props.data.table(EVENTS_TABLE);
    this.consumer = new ServiceFunction(this, 'Consumer', {
      handlerModule: 'lineage-model-consumer',
      memorySize: 1024,
      timeout: Duration.seconds(120),
      description: 'lakeline: applies new lineage events to the lineage read model',
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.consumer
      .bindTable(props.data.table(LINEAGE_TABLE), 'RW')
      .bindBucket(props.data.blobBucket, 'RO');

    this.failureQueue = new sqs.Queue(this, 'Failures', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(this.failureQueue, 'AwsSolutions-SQS3', 'This queue is itself the on-failure destination of the lineage stream consumer; it keeps the records of batches that failed every retry.');

    this.consumer.addEventSource(
      new DynamoEventSource(events, {
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
}
