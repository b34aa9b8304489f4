/**
 * @module alerts
 * `LakelineAlerts` (issue 27, ADR 0052): one Lambda (`functions/handlers/alerts-consumer.ts`) that
 * is the event feed's `alerts` subscriber (reading its own feed queue) and, when EventBridge
 * Scheduler invokes it every five minutes, runs the late-table check — one function rather than
 * two, in a stack near CloudFormation's 500 resources. It writes the Alerts table and reads the
 * Lineage table (blast radii); the API's alert routes get their grants from the route table.
 */
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as scheduler from 'aws-cdk-lib/aws-scheduler';
import * as targets from 'aws-cdk-lib/aws-scheduler-targets';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ALERTS_SUBSCRIBER } from '#domain/alerts/feed-subscriber';
import { ALERTS_TABLE, LINEAGE_TABLE, ORGS_TABLE } from '#shared/table-definitions';
import type { LakelineData } from './data.ts';
import type { LakelineEventFeed } from './event-feed.ts';
import { acknowledgeWildcardResource } from './nag.ts';
import { ServiceFunction } from './service-function.ts';

/** Properties of {@link LakelineAlerts}. */
export interface LakelineAlertsProps {
  readonly data: LakelineData;
  readonly feed: LakelineEventFeed;
  /** How often the late-table check runs. @default 5 minutes */
  readonly freshnessEvery?: Duration;
  readonly logRetention?: logs.RetentionDays;
}

/** Alert evaluation and the late-table check. */
export class LakelineAlerts extends Construct {
  public readonly consumer: ServiceFunction;
  /** Feed messages the evaluator could not apply after every receive. */
  public readonly failureQueue: sqs.Queue;
  public readonly schedule: scheduler.Schedule;

  constructor(scope: Construct, id: string, props: LakelineAlertsProps) {
    super(scope, id);
    this.consumer = new ServiceFunction(this, 'Consumer', {
      handlerModule: 'alerts-consumer',
      memorySize: 512,
      timeout: Duration.seconds(120),
      description: 'lakeline: evaluates new lineage events into alerts; the late-table check on a schedule',
      ...(props.logRetention ? { logRetention: props.logRetention } : {}),
    });
    this.consumer
      .bindTable(props.data.table(ALERTS_TABLE), 'RW')
      // Its feed marks live in the Lineage table's META partitions; blast radii read the model.
      .bindTable(props.data.table(LINEAGE_TABLE), 'RW')
      // The late-table check goes through every org.
      .bindTable(props.data.table(ORGS_TABLE), 'RO')
      .bindBucket(props.data.blobBucket, 'RO');
    this.failureQueue = props.feed.addSubscriber(ALERTS_SUBSCRIBER, this.consumer).deadLetterQueue;
    // The scheduler's own role, so the grant it gets (invoking this function) is acknowledged here.
    const schedulerRole = new iam.Role(this, 'FreshnessSchedulerRole', { assumedBy: new iam.ServicePrincipal('scheduler.amazonaws.com') });
    acknowledgeWildcardResource(schedulerRole, `${this.consumer.functionArn}:*`, "Invoking the alerts function's versions and aliases (Lambda's grantInvoke): only this function, no other.");
    this.schedule = new scheduler.Schedule(this, 'FreshnessSchedule', {
      schedule: scheduler.ScheduleExpression.rate(props.freshnessEvery ?? Duration.minutes(5)),
      // No `Records` in the payload: the function runs the late-table check. A missed tick is caught by the next.
      target: new targets.LambdaInvoke(this.consumer, { role: schedulerRole, retryAttempts: 0, input: scheduler.ScheduleTargetInput.fromObject({ lakeline: 'check-freshness' }) }),
      description: 'lakeline: the late-table check',
    });
  }
}
