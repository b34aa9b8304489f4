/**
 * @module console.test
 * Assertions on `LakelineConsole` in the synthesized `Lakeline` template: a private site bucket
 * read by CloudFront through origin access control only; `/api/*` and `/openapi.json` routed to
 * the HTTP API on the same distribution (viewer headers but Host forwarded, nothing cached, every
 * method); the response headers policy carrying exactly the headers the local gateway sends
 * (`functions/shared/console-site.ts`: CSP without inline script, HSTS, frame-ancestors 'none',
 * nosniff…); the SPA rewrite; the built files deployed with their cache rules; the URL output.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATH_PATTERNS, CONSOLE_CSP, CONSOLE_SECURITY_HEADERS, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL, SPA_REWRITE_FUNCTION_CODE } from '#shared/console-site';
import type { LakelineStack } from '../../lib/lakeline-stack.ts';
import { STACK_OUTPUTS } from '../../lib/stack-outputs.ts';
import { grantsOfRole } from './iam-statements.ts';
import { logicalIdOf, propertiesOf, synthLakeline } from './synth.ts';

type Json = Record<string, unknown>;

/** Managed CloudFront policies (fixed ids). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let stack: LakelineStack;
let template: Template;
let distribution: Json;

beforeAll(() => {
  ({ stack, template } = synthLakeline('console'));
  distribution = propertiesOf(template, logicalIdOf(stack.console.distribution)).DistributionConfig as Json;
});

const originById = (id: unknown): Json => (distribution.Origins as Json[]).find((o) => o.Id === id) as Json;

describe('the console bucket', () => {
  it('Should be private, TLS-only and readable by this distribution alone (origin access control)', () => {
    const bucketId = logicalIdOf(stack.console.bucket);
    expect(propertiesOf(template, bucketId)).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
    });
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketId } } })) as Json[];
    const statements = policies.flatMap((p) => ((p.Properties as Json).PolicyDocument as { Statement: Json[] }).Statement);
    const read = statements.find((s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'cloudfront.amazonaws.com' }));
    expect(read).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
    expect(JSON.stringify(read?.Condition)).toContain(logicalIdOf(stack.console.distribution));
    expect(statements.some((s) => s.Effect === 'Deny' && JSON.stringify(s.Condition).includes('aws:SecureTransport'))).toBe(true);
    const s3Origin = originById((distribution.DefaultCacheBehavior as Json).TargetOriginId);
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    expect(s3Origin.OriginAccessControlId).toBeDefined();
  });
});

describe('the distribution', () => {
  it('Should route /api/* and /openapi.json to the HTTP API: every method, viewer headers but Host, nothing cached', () => {
    const behaviors = distribution.CacheBehaviors as Json[];
    expect(behaviors.map((b) => b.PathPattern)).toEqual([...API_PATH_PATTERNS]);
    for (const behavior of behaviors) {
      expect(behavior).toMatchObject({
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      });
      expect(behavior.ResponseHeadersPolicyId).toBeUndefined();
      const origin = originById(behavior.TargetOriginId);
      expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
      // The API's host name, cut from its endpoint URL.
      expect(JSON.stringify(origin.DomainName)).toContain(logicalIdOf(stack.api.httpApi));
      expect(JSON.stringify(origin.DomainName)).toContain('ApiEndpoint');
    }
  });

  it('Should serve the console from the bucket with the security headers, the SPA rewrite and index.html at the root', () => {
    const behavior = distribution.DefaultCacheBehavior as Json;
    expect(behavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      Compress: true,
      ResponseHeadersPolicyId: { Ref: logicalIdOf(stack.console.responseHeadersPolicy) },
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalIdOf(stack.console.spaRewrite), 'FunctionARN'] } }],
    });
    expect(distribution).toMatchObject({ DefaultRootObject: 'index.html', Enabled: true, Logging: { Bucket: { 'Fn::GetAtt': [logicalIdOf(stack.console.logBucket), 'RegionalDomainName'] }, Prefix: 'cloudfront/' } });
    expect(propertiesOf(template, logicalIdOf(stack.console.spaRewrite))).toMatchObject({
      FunctionCode: SPA_REWRITE_FUNCTION_CODE,
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
      AutoPublish: true,
    });
  });

  it('Should send exactly the local gateway\'s security headers: CSP without inline script, HSTS, frame-ancestors none, nosniff', () => {
    const config = propertiesOf(template, logicalIdOf(stack.console.responseHeadersPolicy)).ResponseHeadersPolicyConfig as Json;
    const security = config.SecurityHeadersConfig as Json;
    expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: CONSOLE_CSP, Override: true });
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).not.toContain('unsafe-eval');
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
    // Every header the local gateway sends, rendered as CloudFront sends it.
    const hsts = security.StrictTransportSecurity as { AccessControlMaxAgeSec: number; IncludeSubdomains: boolean };
    const custom = Object.fromEntries(((config.CustomHeadersConfig as { Items: { Header: string; Value: string }[] }).Items).map((h) => [h.Header, h.Value]));
    const sent: Record<string, string> = {
      'content-security-policy': (security.ContentSecurityPolicy as { ContentSecurityPolicy: string }).ContentSecurityPolicy,
      'strict-transport-security': `max-age=${hsts.AccessControlMaxAgeSec}${hsts.IncludeSubdomains ? '; includeSubDomains' : ''}`,
      'x-content-type-options': security.ContentTypeOptions ? 'nosniff' : '',
      'x-frame-options': (security.FrameOptions as { FrameOption: string }).FrameOption,
      'referrer-policy': (security.ReferrerPolicy as { ReferrerPolicy: string }).ReferrerPolicy,
      ...custom,
    };
    expect(sent).toEqual(CONSOLE_SECURITY_HEADERS);
  });

  it('Should output the console URL', () => {
    template.hasOutput(STACK_OUTPUTS.consoleUrl, { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(stack.console.distribution), 'DomainName'] }]] } });
  });
});

describe('the deployment of the built console', () => {
  it('Should copy the hashed assets cached for a year and the rest revalidated, no dotfiles, pruning nothing', () => {
    const assembly = stack.node.root as unknown as { outdir: string };
    const deployments = Object.values(template.findResources('Custom::CDKBucketDeployment')) as { Properties: Json }[];
    expect(deployments).toHaveLength(2);
    const files = (props: Json): string[] => {
      const key = Stack.of(stack).resolve((props.SourceObjectKeys as unknown[])[0]) as string;
      const dir = path.join(assembly.outdir, `asset.${key.replace(/\.zip$/, '')}`);
      const walk = (d: string, prefix = ''): string[] =>
        readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
      return walk(dir).sort();
    };
    const byCache = Object.fromEntries(deployments.map((d) => [(d.Properties.SystemMetadata as Json)['cache-control'], d.Properties]));
    expect(Object.keys(byCache).sort()).toEqual([IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL].sort());
    for (const props of Object.values(byCache)) expect(props).toMatchObject({ DestinationBucketName: { Ref: logicalIdOf(stack.console.bucket) }, Prune: false });
    const assets = files(byCache[IMMUTABLE_CACHE_CONTROL] as Json);
    const rest = files(byCache[REVALIDATE_CACHE_CONTROL] as Json);
    expect(assets.length, assets.join(', ')).toBeGreaterThan(2);
    expect(assets.every((f) => /^assets\/[\w.-]+\.(js|css)$/.test(f))).toBe(true);
    expect(rest).toEqual(['favicon.svg', 'index.html']);
  });

  it('Should give the deployment handler a role of its own: its log group, the asset zip read, the console bucket written, nothing else', () => {
    const grants = grantsOfRole(template, logicalIdOf(stack.console.deploymentRole));
    const bucket = logicalIdOf(stack.console.bucket);
    for (const grant of grants) {
      const onBucket = grant.resource.includes(bucket);
      const onAssets = grant.resource.includes('cdk-hnb659fds-assets-123456789012-eu-west-1');
      const onLogs = grant.resource.includes('ConsoleDeployLogs');
      expect(onBucket || onAssets || onLogs, `${grant.action} on ${grant.resource}`).toBe(true);
      if (onAssets) expect(grant.action).toMatch(/^s3:(GetObject\*|GetBucket\*|List\*)$/);
      if (onLogs) expect(grant.action).toMatch(/^logs:(CreateLogStream|PutLogEvents)$/);
    }
    expect(grants.some((g) => g.resource.includes(bucket) && g.action === 's3:PutObject')).toBe(true);
    expect(propertiesOf(template, logicalIdOf(stack.console.deploymentFunction))).toMatchObject({ Role: { 'Fn::GetAtt': [logicalIdOf(stack.console.deploymentRole), 'Arn'] } });
  });
});
