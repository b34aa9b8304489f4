/**
 * @module lakeline-stack
 * `LakelineStack`: composes the service from its constructs (state, then the API over it, then the
 * console in front of the API) and holds no resources of its own.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import { ROUTES } from '#shared/routes';
import type { Construct } from 'constructs';
import { LakelineApi, type LakelineApiProps } from './api.ts';
import { LakelineBloom, type LakelineBloomProps } from './bloom.ts';
import { LakelineConsole, type LakelineConsoleProps } from './console.ts';
import { LakelineData, type LakelineDataProps } from './data.ts';
import { LakelineLake, type LakelineLakeProps } from './lake.ts';
import { LakelineEventFeed, type LakelineEventFeedProps } from './event-feed.ts';
import { LakelineNotifications, type LakelineNotificationsProps } from './notifications.ts';
import { LakelineLineageGraph, type LakelineLineageGraphProps } from './lineage-graph.ts';
import { LakelineAlerts } from './alerts.ts';
import { NOTIFICATIONS_TABLE } from '#shared/table-definitions';
import { LakelineLineageTables } from './lineage-tables.ts';
import { LakelinePolars, type LakelinePolarsProps } from './polars.ts';
import { LakelinePolarsFargate, type LakelinePolarsFargateProps } from './polars-fargate.ts';
import { SandboxNetwork, type SandboxNetworkProps } from './sandbox-network.ts';
import { LakelineSpark, type LakelineSparkProps } from './spark.ts';
import { LakelineWarehouse, type LakelineWarehouseProps } from './warehouse.ts';

/** Properties of {@link LakelineStack}. */
export interface LakelineStackProps extends StackProps {
  /** Passed to {@link LakelineData}. @default - its defaults */
  readonly data?: LakelineDataProps;
  /** Passed to {@link LakelineApi} (everything but `data`). @default - its defaults */
  readonly api?: Omit<LakelineApiProps, 'data'>;
  /** Passed to {@link LakelineWarehouse} (everything but the log bucket). @default - its defaults */
  readonly warehouse?: Omit<LakelineWarehouseProps, 'accessLogBucket'>;
  /** Passed to {@link LakelineSpark} (everything but the constructs it wires). @default - its defaults */
  readonly spark?: Omit<LakelineSparkProps, 'api' | 'data' | 'warehouse' | 'routes'>;
  /** Passed to {@link LakelineLake} (everything but the constructs it wires). @default - its defaults */
  readonly lake?: Omit<LakelineLakeProps, 'api' | 'warehouse' | 'data' | 'routes'>;
  /** Passed to {@link LakelinePolars} (everything but the constructs it wires). @default - its defaults */
  readonly polars?: Omit<LakelinePolarsProps, 'api' | 'warehouse' | 'routes' | 'network'>;
  /**
   * Passed to {@link LakelinePolarsFargate} (warm tasks per tier, scaling): the 8- and 16-vCPU
   * sandboxes, the only ones that run scripts in AWS. @default - no warm tasks: not built
   */
  readonly polarsFargate?: Omit<LakelinePolarsFargateProps, 'warehouse' | 'network' | 'addInterfaceEndpoint' | 'callers'>;
  /** Passed to {@link SandboxNetwork} (everything but the bucket). @default - its defaults */
  readonly sandboxNetwork?: Omit<SandboxNetworkProps, 'bucket'>;
  /** Passed to {@link LakelineBloom} (everything but the constructs it wires). @default - its defaults */
  readonly bloom?: Omit<LakelineBloomProps, 'warehouse' | 'functions'>;
  /** Passed to {@link LakelineLineageGraph} (everything but the data). @default - its defaults */
  readonly lineageGraph?: Omit<LakelineLineageGraphProps, 'data' | 'feed'>;
  /** Passed to {@link LakelineEventFeed} (everything but the data). @default - its defaults */
  readonly eventFeed?: Omit<LakelineEventFeedProps, 'data'>;
  /** Passed to {@link LakelineNotifications} (everything but the data and the senders). @default - its defaults */
  readonly notifications?: Omit<LakelineNotificationsProps, 'data' | 'senders'>;
  /** Passed to {@link LakelineConsole} (everything but the constructs it wires). @default - its defaults */
  readonly console?: Omit<LakelineConsoleProps, 'api' | 'accessLogBucket'>;
}

/** The whole service in one stack. */
export class LakelineStack extends Stack {
  public readonly data: LakelineData;
  public readonly api: LakelineApi;
  public readonly warehouse: LakelineWarehouse;
  public readonly spark: LakelineSpark;
  public readonly lake: LakelineLake;
  public readonly sandboxNetwork: SandboxNetwork;
  public readonly polars: LakelinePolars;
  public readonly polarsFargate: LakelinePolarsFargate;
  public readonly bloom: LakelineBloom;
  public readonly console: LakelineConsole;
  public readonly eventFeed: LakelineEventFeed;
  public readonly lineageGraph: LakelineLineageGraph;
  public readonly alerts: LakelineAlerts;
  public readonly notifications: LakelineNotifications;
  public readonly lineageTables: LakelineLineageTables;

  constructor(scope: Construct, id: string, props: LakelineStackProps = {}) {
    super(scope, id, props);
    this.data = new LakelineData(this, 'Data', props.data);
    this.api = new LakelineApi(this, 'Api', { ...props.api, data: this.data });
    this.eventFeed = new LakelineEventFeed(this, 'EventFeed', { ...props.eventFeed, data: this.data });
    this.lineageGraph = new LakelineLineageGraph(this, 'LineageGraph', { ...props.lineageGraph, data: this.data, feed: this.eventFeed });
    this.alerts = new LakelineAlerts(this, 'Alerts', { data: this.data, feed: this.eventFeed, ...(props.lineageGraph?.logRetention ? { logRetention: props.lineageGraph.logRetention } : {}) });
    this.warehouse = new LakelineWarehouse(this, 'Warehouse', { ...props.warehouse, accessLogBucket: this.data.accessLogBucket });
    this.lake = new LakelineLake(this, 'Lake', {
      ...props.lake,
      api: this.api,
      warehouse: this.warehouse,
      data: this.data,
      ...(props.api?.routes ? { routes: props.api.routes } : {}),
    });
    this.lineageTables = new LakelineLineageTables(this, 'LineageTables', { data: this.data, feed: this.eventFeed, lakeWriter: this.lake.lakeWriter });
    this.sandboxNetwork = new SandboxNetwork(this, 'SandboxNetwork', { ...props.sandboxNetwork, bucket: this.warehouse.bucket });
    this.polars = new LakelinePolars(this, 'Polars', {
      ...props.polars,
      api: this.api,
      warehouse: this.warehouse,
      network: this.sandboxNetwork,
      ...(props.api?.routes ? { routes: props.api.routes } : {}),
    });
    this.polarsFargate = new LakelinePolarsFargate(this, 'PolarsFargate', {
      ...props.polarsFargate,
      warehouse: this.warehouse,
      network: this.sandboxNetwork,
      addInterfaceEndpoint: (endpointId, service) => this.sandboxNetwork.addInterfaceEndpoint(endpointId, service),
      callers: this.polars.callers,
    });
    // Fargate pulls image layers from ECR's own S3 bucket, through the same (bucket-limited) endpoint.
    if (this.polarsFargate.tiers.size > 0) this.sandboxNetwork.allowEcrImageLayers();
    this.spark = new LakelineSpark(this, 'Spark', {
      ...props.spark,
      api: this.api,
      data: this.data,
      warehouse: this.warehouse,
      ...(props.api?.routes ? { routes: props.api.routes } : {}),
    });
    const bloomFunctions = (props.api?.routes ?? ROUTES).filter((r) => r.bloom).flatMap((r) => {
      const fn = this.api.functions.get(r.id);
      return fn ? [fn] : [];
    });
    this.bloom = new LakelineBloom(this, 'Bloom', { ...props.bloom, warehouse: this.warehouse, functions: bloomFunctions });
    const deliverySenders = (props.api?.routes ?? ROUTES).filter((r) => r.queuesDeliveries).flatMap((r) => {
      const fn = this.api.functions.get(r.id);
      return fn ? [fn] : [];
    });
    this.notifications = new LakelineNotifications(this, 'Notifications', { ...props.notifications, data: this.data, senders: deliverySenders });
    // Alert evaluation (and its late-table check, the same function) notifies the org's destinations.
    this.alerts.consumer.bindTable(this.data.table(NOTIFICATIONS_TABLE), 'RW');
    this.notifications.grantEnqueue(this.alerts.consumer);
    this.console = new LakelineConsole(this, 'Console', { ...props.console, api: this.api, accessLogBucket: this.data.accessLogBucket });
  }
}
