/**
 * @module lineage-tables
 * `LakelineLineageTables`: the lineage lake tables' export (ADR 0056), a subscriber of the event
 * feed (ADR 0045): a Lambda (`functions/handlers/lineage-tables-consumer.ts`) reading its own FIFO
 * queue and invoking the existing lake writer Lambda (pyiceberg on Glue) with each org's batch.
 * Compaction and snapshot expiry run with the hourly results expiry (`lib/lake.ts`).
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { LAKE_WRITER_FUNCTION_ENV } from '#composition/env-names';
import { LINEAGE_TABLES_SUBSCRIBER } from '#domain/lineage-tables/feed-subscriber';
import { LINEAGE_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import type { LakelineEventFeed } from './event-feed.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineLineageTables}. */
export interface LakelineLineageTablesProps {
  /** The tables (Events, Lineage) and the blob bucket. */
  readonly data: LakelineData;
  /** The event feed the export subscribes to. */
  readonly feed: LakelineEventFeed;
  /** The lake writer Lambda every lake write goes through (ADR 0016). */
  readonly lakeWriter: lambda.IFunction;
  /** Retention of the consumer's log group. @default - the function's default */
  readonly logRetention?: logs.RetentionDays;
}

/** The lineage tables' export. */
export class LakelineLineageTables extends Construct {
  public readonly consumer: ServiceFunction;
  /** Feed messages that could not be exported after every receive (its dead-letter queue, 14 days). */
  public readonly failureQueue: sqs.Queue;

  constructor(scope: Construct, id: string, props: LakelineLineageTablesProps) {
    super(scope, id);
    this.consumer = new ServiceFunction(this, 'Consumer', {
      handlerModule: 'lineage-tables-consumer',
      memorySize: 512,
      // The lake writer's own timeout bounds one export request; a few requests per invocation.
      timeout: Duration.minutes(5),
      description: "lakeline: exports new lineage events to each org's lineage lake tables",
      environment: { [LAKE_WRITER_FUNCTION_ENV]: props.lakeWriter.functionName },
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.consumer.bindTable(props.data.table(LINEAGE_TABLE), 'RW').bindBucket(props.data.blobBucket, 'RO');
    this.consumer.addToRolePolicy(new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [props.lakeWriter.functionArn] }));
    this.failureQueue = props.feed.addSubscriber(LINEAGE_TABLES_SUBSCRIBER, this.consumer).deadLetterQueue;
  }
}
