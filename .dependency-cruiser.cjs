/**
 * The dependency rules of functions/ (docs/architecture.md, "Which way imports point"), checked by
 * `npm run lint:structure` in `npm test`. Floors from the ground up:
 *   domain < shared < adapters < composition < handlers
 * and inside domain/ the folders in DOMAIN_ORDER. A module may import its own floor (its own
 * folder) and any floor below it, never one above; no files import each other in a circle.
 */
'use strict';

/** The domain's folders from the ground up; the domain's own files (errors.ts …) lie under all of them. */
const DOMAIN_ORDER = ['core', 'sql', 'lineage', 'feed', 'notifications', 'orgs', 'auth', 'lineage-graph', 'lake', 'routing', 'polars', 'lineage-capture', 'runs', 'bloom', 'query', 'lineage-tables', 'alerts'];

/** The floors of functions/ from the ground up. */
const FLOORS = ['domain', 'shared', 'adapters', 'composition', 'handlers'];

const anyOf = (names) => `(${names.join('|')})`;

/** One rule per floor: nothing on it imports a floor above it. */
const floorRules = FLOORS.slice(0, -1).map((floor, i) => ({
  name: `${floor}-imports-no-floor-above`,
  comment: `functions/${floor}/ may import only ${FLOORS.slice(0, i).map((f) => `${f}/`).join(', ') || 'nothing of functions/ but itself'}: ${FLOORS.slice(i + 1).join(', ')} are above it`,
  severity: 'error',
  from: { path: `^functions/${floor}/` },
  to: { path: `^(functions/${anyOf(FLOORS.slice(i + 1))}/|local/|cli/|lib/|bin/)` },
}));

/** One rule per domain folder: it imports no folder above it in DOMAIN_ORDER. */
const domainOrderRules = DOMAIN_ORDER.slice(0, -1).map((folder, i) => ({
  name: `domain-${folder}-imports-no-folder-above`,
  comment: `domain/${folder}/ stands under ${DOMAIN_ORDER.slice(i + 1).join(', ')} (docs/architecture.md)`,
  severity: 'error',
  from: { path: `^functions/domain/${folder}/` },
  to: { path: `^functions/domain/${anyOf(DOMAIN_ORDER.slice(i + 1))}/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files that import each other in a circle have no floor; pull what they share down into a file of its own',
      severity: 'error',
      from: { path: '^functions/' },
      to: { circular: true },
    },
    ...floorRules,
    {
      name: 'domain-imports-no-aws',
      comment: 'Domain code imports no AWS SDK and no aws-lambda (CONTRIBUTING.md): adapters implement its ports',
      severity: 'error',
      from: { path: '^functions/domain/' },
      to: { path: '((^|/)node_modules/(@aws-sdk|@smithy|@types/aws-lambda|aws-lambda|aws-cdk-lib)/|^(aws-lambda|@aws-sdk/.+|@smithy/.+)$)' },
    },
    {
      name: 'domain-ground-imports-no-folder',
      comment: "The domain's own files (errors.ts, input-limits.ts, strict-json.ts) lie under every domain folder",
      severity: 'error',
      from: { path: '^functions/domain/[^/]+$' },
      to: { path: '^functions/domain/[^/]+/' },
    },
    {
      name: 'domain-folder-is-ordered',
      comment: 'Every domain folder has its place in DOMAIN_ORDER (.dependency-cruiser.cjs and docs/architecture.md), or no order rule would guard it',
      severity: 'error',
      from: { path: '^functions/domain/[^/]+/', pathNot: `^functions/domain/${anyOf(DOMAIN_ORDER)}/` },
      to: {},
    },
    ...domainOrderRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|functions/polars|functions/lakewriter)/' },
    // Type-only imports tie files as much as any other: count them.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      // The `#domain/*` … aliases of package.json's "imports" resolve through enhanced-resolve's defaults.
      conditionNames: ['import', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
