/**
 * @module console
 * `LakelineConsole`: the web console in AWS. The built files (`web/dist`) go to a private S3
 * bucket read only by CloudFront (origin access control); the same distribution routes `/api/*`
 * and `/openapi.json` to the HTTP API (viewer headers but Host forwarded, so the `Authorization`
 * header and the session cookie reach the authorizer; nothing cached), so the browser needs no
 * CORS. Console responses carry the security headers of `functions/shared/console-site.ts` (the
 * local gateway sends the same), app routes are answered with index.html by a CloudFront Function,
 * and content-hashed assets are cached for a year while index.html is revalidated.
 */
import { CfnOutput, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import {
  API_PATH_PATTERNS,
  CONSOLE_ASSETS_DIR,
  CONSOLE_CSP,
  CONSOLE_HSTS,
  CONSOLE_SECURITY_HEADERS,
  IMMUTABLE_CACHE_CONTROL,
  REVALIDATE_CACHE_CONTROL,
  SPA_REWRITE_FUNCTION_CODE,
} from '#shared/console-site';
import { ensureConsoleBuilt } from '../scripts/build-console.mjs';
import type { LakelineApi } from './api.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { STACK_OUTPUTS } from './stack-outputs.ts';

/** Properties of {@link LakelineConsole}. */
export interface LakelineConsoleProps {
  /** The HTTP API the distribution routes `/api/*` and `/openapi.json` to. */
  readonly api: LakelineApi;
  /** Receives the site bucket's and the CloudFront log bucket's server access logs (the data construct's log bucket). */
  readonly accessLogBucket: s3.IBucket;
  /** The built console. @default `web/dist`, built at synth when absent or stale (`npm run build:web`) */
  readonly siteDir?: string;
  /** Custom domain names; need `certificate` (in us-east-1). @default - the distribution's `*.cloudfront.net` name */
  readonly domainNames?: readonly string[];
  /** The certificate of `domainNames`; with it, viewers need TLS 1.2 (TLSv1.2_2021). @default - none */
  readonly certificate?: acm.ICertificate;
  /** A WAF web ACL (scope CLOUDFRONT) in front of the console and the API. @default - none */
  readonly webAclId?: string;
  /** Edge locations used. @default PriceClass.PRICE_CLASS_100 */
  readonly priceClass?: cloudfront.PriceClass;
  /** How long CloudFront's access logs are kept. @default Duration.days(365) */
  readonly logRetention?: Duration;
  /** What happens to the site bucket when the stack is deleted (it holds only build output). @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
}

/** The response headers policy's settings, derived from {@link CONSOLE_SECURITY_HEADERS}. */
const securityHeaders = (): cloudfront.ResponseHeadersPolicyProps => {
  const custom = Object.entries(CONSOLE_SECURITY_HEADERS).filter(([name]) => ['cross-origin-opener-policy', 'permissions-policy'].includes(name));
  return {
    comment: 'lakeline console: CSP without inline script, HSTS, no framing, nosniff',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: CONSOLE_CSP, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.seconds(CONSOLE_HSTS.maxAgeSeconds), includeSubdomains: CONSOLE_HSTS.includeSubdomains, override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
    },
    customHeadersBehavior: { customHeaders: custom.map(([header, value]) => ({ header, value, override: true })) },
  };
};

/** The console's bucket, distribution and deployment. */
export class LakelineConsole extends Construct {
  /** The private bucket holding the built console. */
  public readonly bucket: s3.Bucket;
  /** Receives CloudFront's standard access logs. */
  public readonly logBucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  /** Security headers of every console response. */
  public readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  /** Answers the app's routes with index.html. */
  public readonly spaRewrite: cloudfront.Function;
  /** Copies the content-hashed assets (cached for a year) and the rest (revalidated) to the bucket. */
  public readonly deployments: readonly s3deploy.BucketDeployment[];
  /** The deployments' handler (aws-cdk-lib's BucketDeployment function, one per stack). */
  public readonly deploymentFunction: lambda.IFunction;
  /** The handler's own role: no managed policies, its log group and the two buckets only. */
  public readonly deploymentRole: iam.Role;
  /** `https://<distribution domain>`. */
  public readonly url: string;

  constructor(scope: Construct, id: string, props: LakelineConsoleProps) {
    super(scope, id);
    if (props.domainNames?.length && !props.certificate) throw new Error(`${this.node.path}: domainNames need a certificate`);
    if (props.certificate && !props.domainNames?.length) throw new Error(`${this.node.path}: a certificate needs domainNames`);
    const retention = props.logRetention ?? Duration.days(365);
    if (!retention.isUnresolved() && retention.toDays() < 1) throw new Error(`${this.node.path}: logRetention must be at least one day`);
    const siteDir = props.siteDir ?? ensureConsoleBuilt({ quiet: true });

    // Server access logs by bucket policy, not ACLs (as the other buckets).
    this.node.setContext(cxapi.S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'console-bucket/',
      removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    });
    // CloudFront's standard logs are delivered with ACLs, so this bucket alone keeps them enabled.
    this.logBucket = new s3.Bucket(this, 'CdnLogBucket', {
      encryption: s3.BucketEncryption.S3_MANAGED,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.OBJECT_WRITER,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: 'console-cdn-log-bucket/',
      lifecycleRules: [{ expiration: retention }],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', securityHeaders());
    this.spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'lakeline console: app routes (no file extension) are answered with index.html',
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_FUNCTION_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    // Honours the files' own Cache-Control (a year for hashed assets, revalidation for index.html).
    const siteCachePolicy = new cloudfront.CachePolicy(this, 'SiteCachePolicy', {
      comment: 'lakeline console files: the origin\'s Cache-Control decides',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.days(1),
      maxTtl: Duration.days(365),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    // API Gateway answers on its own host name: everything the viewer sent but Host goes through
    // (Authorization, the session cookie, the query string); nothing is cached.
    const apiOrigin = new origins.HttpOrigin(Fn.select(2, Fn.split('/', props.api.httpApi.apiEndpoint)), {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
    });
    const apiBehavior: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      compress: false,
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'lakeline console and API',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: props.priceClass ?? cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'cloudfront/',
      ...(props.domainNames?.length && props.certificate
        ? { domainNames: [...props.domainNames], certificate: props.certificate, minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 }
        : {}),
      ...(props.webAclId ? { webAclId: props.webAclId } : {}),
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: siteCachePolicy,
        responseHeadersPolicy: this.responseHeadersPolicy,
        compress: true,
        functionAssociations: [{ function: this.spaRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
    });

    // Two copies with their own Cache-Control. Neither prunes: an old index.html still open in a
    // browser keeps finding the chunks it names, and content-hashed names never collide.
    const files = {
      assets: new s3assets.Asset(this, 'AssetFiles', { path: siteDir, exclude: ['*', '.*', `!${CONSOLE_ASSETS_DIR}`, `!${CONSOLE_ASSETS_DIR}/**`] }),
      site: new s3assets.Asset(this, 'SiteFiles', { path: siteDir, exclude: [`${CONSOLE_ASSETS_DIR}/**`, '.*', '.*/**'] }),
    };
    // The handler gets a role of its own instead of CDK's default (which carries the
    // AWSLambdaBasicExecutionRole managed policy): its log group, and the grants the deployments add.
    const deployLogs = new logs.LogGroup(this, 'DeployLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    this.deploymentRole = new iam.Role(this, 'DeployRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'lakeline console: copies the built console into its bucket at deploy time',
    });
    deployLogs.grantWrite(this.deploymentRole);
    const deploy = (id: string, asset: s3assets.Asset, cacheControl: string) =>
      new s3deploy.BucketDeployment(this, id, {
        sources: [s3deploy.Source.bucket(asset.bucket, asset.s3ObjectKey)],
        destinationBucket: this.bucket,
        prune: false,
        cacheControl: [s3deploy.CacheControl.fromString(cacheControl)],
        role: this.deploymentRole,
        logGroup: deployLogs,
      });
    this.deployments = [deploy('DeployAssets', files.assets, IMMUTABLE_CACHE_CONTROL), deploy('DeploySite', files.site, REVALIDATE_CACHE_CONTROL)];
    const handler = Stack.of(this).node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!handler) throw new Error(`${this.node.path}: BucketDeployment created no handler function`);
    this.deploymentFunction = handler as lambda.IFunction;

    const grantReason = 'aws-cdk-lib\'s BucketDeployment grants: it reads the uploaded zip of the built console and writes (and may overwrite) objects of the console bucket only.';
    for (const action of ['s3:GetObject*', 's3:GetBucket*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) acknowledge(this.deploymentRole, `AwsSolutions-IAM5[Action::${action}]`, grantReason);
    acknowledgeWildcardResource(this.deploymentRole, files.assets.bucket.arnForObjects('*'), 'The CDK asset bucket holds the console\'s zip under a hashed key known only at deploy time; read access only.');
    acknowledgeWildcardResource(this.deploymentRole, this.bucket.arnForObjects('*'), 'The deployment writes every file of the built console; the bucket holds nothing else.');
    acknowledge(handler, 'AwsSolutions-L1', 'The runtime is chosen by aws-cdk-lib\'s BucketDeployment (Python with the AWS CLI layer) and moves with aws-cdk-lib upgrades; it runs only at deploy time.');
    this.url = `https://${this.distribution.distributionDomainName}`;

    if (!props.webAclId) {
      acknowledge(this.distribution, 'AwsSolutions-CFR2', 'No WAF web ACL by default (it is billed per ACL and rule); pass webAclId to put one in front of the console and the API. The API keeps its own throttling and authorizer.');
    }
    acknowledge(this.distribution, 'AwsSolutions-CFR1', 'The console and API serve an organization\'s own users wherever they are; which countries to refuse is the operator\'s policy, not a default.');
    if (!props.certificate) {
      acknowledge(this.distribution, 'AwsSolutions-CFR4', 'Without a custom domain the distribution uses the *.cloudfront.net certificate, whose viewer TLS policy CloudFront fixes; pass domainNames and certificate to require TLSv1.2_2021.');
    }

    new CfnOutput(this, STACK_OUTPUTS.consoleUrl, { value: this.url, description: 'The lakeline console (and the API under /api/ on the same origin)' }).overrideLogicalId(STACK_OUTPUTS.consoleUrl);
  }
}
