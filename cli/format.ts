/**
 * @module format
 * Text output for people. Scripts should use `--json`, whose shapes are the records themselves;
 * the text layout may change.
 */
import type { VisibleApiKey } from '#domain/orgs/manage';
import type { Org } from '#domain/orgs/org';

/** Left-aligned columns separated by two spaces, with a header row. */
export const table = (headers: readonly string[], rows: readonly (readonly string[])[]): string => {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
};

const usd = (n: number): string => `${Number.isInteger(n) ? n : n.toFixed(2)} USD`;

/** Labelled lines describing one org. */
export const orgDetails = (org: Org): string =>
  [
    `  name:            ${org.name}`,
    `  plan:            ${org.plan}`,
    `  payment method:  ${org.paymentMethod ? 'yes' : 'no'}`,
    `  credit limit:    ${usd(org.creditLimitUsd)}`,
    `  usage:           ${usd(org.usageUsd)}`,
    `  created:         ${org.createdAt}`,
  ].join('\n');

/** Orgs as a table. */
export const orgTable = (orgs: readonly Org[]): string =>
  orgs.length === 0
    ? 'No organizations.'
    : table(
        ['ORG ID', 'NAME', 'PLAN', 'PAYMENT', 'CREDIT LIMIT', 'USAGE', 'CREATED'],
        orgs.map((o) => [o.orgId, o.name, o.plan, o.paymentMethod ? 'yes' : 'no', usd(o.creditLimitUsd), usd(o.usageUsd), o.createdAt]),
      );

/** Keys as a table; never a secret or a hash (the records passed here have none). */
export const keyTable = (keys: readonly VisibleApiKey[]): string =>
  keys.length === 0
    ? 'No API keys.'
    : table(
        ['KEY ID', 'NAME', 'SCOPE', 'STATUS', 'CREATED', 'LAST USED'],
        keys.map((k) => [k.keyId, k.name, k.scope ?? 'full', k.revokedAt ? `revoked ${k.revokedAt}` : 'active', k.createdAt, k.lastUsedAt ?? 'never']),
      );
