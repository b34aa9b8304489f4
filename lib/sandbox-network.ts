/**
 * @module sandbox-network
 * `SandboxNetwork`: where the polars sandboxes run. A VPC of private isolated subnets only (two
 * AZs, no NAT gateway, no internet gateway), so a script has no route to the internet: the only
 * ways out are the S3 gateway endpoint, whose endpoint policy admits the warehouse bucket alone
 * (a script holding its run's credentials cannot copy data to a bucket of its own), and the
 * interface endpoints added with {@link SandboxNetwork.addInterfaceEndpoint} (the Fargate tiers'
 * ECR, logs and SQS). The sandboxes' security group allows egress on TCP 443 only; flow logs of
 * all traffic go to CloudWatch Logs.
 */
import { Aws, RemovalPolicy } from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** Properties of {@link SandboxNetwork}. */
export interface SandboxNetworkProps {
  /** The warehouse bucket: the only bucket the S3 endpoint lets the sandboxes reach. */
  readonly bucket: s3.IBucket;
  /** The VPC's address range. @default 10.80.0.0/16 */
  readonly cidr?: string;
  /** Retention of the flow logs. @default logs.RetentionDays.ONE_MONTH */
  readonly flowLogRetention?: logs.RetentionDays;
}

/** S3 actions the sandboxes and the Fargate runner use; IAM narrows them per role and run. */
const S3_ENDPOINT_ACTIONS = ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListBucket'];

/** The isolated network of the polars sandboxes. */
export class SandboxNetwork extends Construct {
  public readonly vpc: ec2.IVpc;
  /** The isolated subnets (one per AZ). */
  public readonly subnets: ec2.SubnetSelection;
  /** The sandboxes' security group: no ingress, egress TCP 443 only. */
  public readonly securityGroup: ec2.ISecurityGroup;
  /** The S3 gateway endpoint (its policy admits the warehouse bucket only). */
  public readonly s3Endpoint: ec2.GatewayVpcEndpoint;
  private endpointSecurityGroup?: ec2.SecurityGroup;

  constructor(scope: Construct, id: string, props: SandboxNetworkProps) {
    super(scope, id);
    const vpc = new ec2.Vpc(this, 'Vpc', {
      ipAddresses: ec2.IpAddresses.cidr(props.cidr ?? '10.80.0.0/16'),
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'Sandbox', subnetType: ec2.SubnetType.PRIVATE_ISOLATED, cidrMask: 22 }],
      // Nothing uses the default group; restricting it would add a custom-resource Lambda for no gain.
      restrictDefaultSecurityGroup: false,
    });
    this.vpc = vpc;
    this.subnets = { subnetType: ec2.SubnetType.PRIVATE_ISOLATED };

    const flowLogGroup = new logs.LogGroup(this, 'FlowLogGroup', { retention: props.flowLogRetention ?? logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    vpc.addFlowLog('FlowLog', { destination: ec2.FlowLogDestination.toCloudWatchLogs(flowLogGroup), trafficType: ec2.FlowLogTrafficType.ALL });

    this.s3Endpoint = vpc.addGatewayEndpoint('S3', { service: ec2.GatewayVpcEndpointAwsService.S3, subnets: [this.subnets] });
    this.s3Endpoint.addToPolicy(
      new iam.PolicyStatement({ principals: [new iam.AnyPrincipal()], actions: S3_ENDPOINT_ACTIONS, resources: [props.bucket.bucketArn, props.bucket.arnForObjects('*')] }),
    );

    const group = new ec2.SecurityGroup(this, 'SecurityGroup', { vpc, allowAllOutbound: false, description: 'lakeline polars sandboxes: HTTPS to the VPC endpoints only' });
    // No NAT and no internet gateway: 443 reaches only S3 (gateway endpoint) and the interface endpoints.
    group.addEgressRule(ec2.Peer.anyIpv4(), ec2.Port.tcp(443), 'HTTPS to the S3 gateway endpoint and the interface endpoints');
    this.securityGroup = group;
  }

  /**
   * Lets the S3 endpoint serve ECR's image layers (they live in ECR's own bucket per region), which
   * Fargate tasks in these subnets need to pull their image. Read-only, that one bucket.
   */
  allowEcrImageLayers(): void {
    this.s3Endpoint.addToPolicy(
      new iam.PolicyStatement({ principals: [new iam.AnyPrincipal()], actions: ['s3:GetObject'], resources: [`arn:${Aws.PARTITION}:s3:::prod-${Aws.REGION}-starport-layer-bucket/*`] }),
    );
  }

  /**
   * Adds an interface endpoint (private DNS) in the isolated subnets, reachable from the sandboxes'
   * security group on TCP 443.
   */
  addInterfaceEndpoint(id: string, service: ec2.InterfaceVpcEndpointAwsService): ec2.InterfaceVpcEndpoint {
    if (!this.endpointSecurityGroup) {
      this.endpointSecurityGroup = new ec2.SecurityGroup(this, 'EndpointSecurityGroup', { vpc: this.vpc, allowAllOutbound: false, description: 'lakeline polars sandbox network: interface endpoints' });
      this.endpointSecurityGroup.addIngressRule(this.securityGroup, ec2.Port.tcp(443), 'HTTPS from the sandboxes');
    }
    // `open: false`: only the sandboxes' group may connect (the default would admit the whole VPC CIDR).
    return this.vpc.addInterfaceEndpoint(id, { service, subnets: this.subnets, securityGroups: [this.endpointSecurityGroup], privateDnsEnabled: true, open: false });
  }
}
