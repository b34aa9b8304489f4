/**
 * @module lineage-graph
 * `LakelineLineageGraph`: the lineage read model's consumer (ADR 0031), the event feed's first
 * subscriber (ADR 0045): a Lambda (`functions/handlers/lineage-model-consumer.ts`) reading its own
 * feed queue with partial batch responses, and a dead-letter queue that keeps what could not be
 * applied (rebuild recomputes the model from the stored events either way). The read endpoints get
 * read access to the Lineage table from the route table.
 */
import { Duration } from 'aws-cdk-lib';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LINEAGE_MODEL_SUBSCRIBER } from '#domain/lineage-graph/feed-subscriber';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import type { LakelineEventFeed } from './event-feed.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineLineageGraph}. */
export interface LakelineLineageGraphProps {
  /** The tables (Events, Lineage) and the blob bucket. */
  readonly data: LakelineData;
  /** The event feed the model subscribes to. */
  readonly feed: LakelineEventFeed;
  /** Receives of a feed message before it goes to the dead-letter queue. @default 5 */
  readonly maxReceiveCount?: number;
  /** Retention of the consumer's log group. @default - the function's default */
  readonly logRetention?: logs.RetentionDays;
}

/** The stream consumer of the lineage read model. */
export class LakelineLineageGraph extends Construct {
  public readonly consumer: ServiceFunction;
  /** The feed messages that could not be applied after every receive (its dead-letter queue, 14 days). */
  public readonly failureQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: LakelineLineageGraphProps) {
    super(scope, id);
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

    this.failureQueue = props.feed.addSubscriber(LINEAGE_MODEL_SUBSCRIBER, this.consumer, props.maxReceiveCount === undefined ? {} : { maxReceiveCount: props.maxReceiveCount }).deadLetterQueue;
  }
}
