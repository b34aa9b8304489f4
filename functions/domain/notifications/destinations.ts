/**
 * @module notifications/destinations
 * A destination is where an org's alert notices go: an HTTPS endpoint (`webhook`, signed the
 * Standard Webhooks way) or a Slack incoming webhook (`slack`), optionally only for some alert
 * kinds. Its signing secret is made here, at creation, and shown once (ADR 0054).
 */
import { randomBytes } from 'node:crypto';
import type { AlertKind } from './ports.ts';

/** The kinds of destination. */
export type DestinationKind = 'webhook' | 'slack';

/** Every alert kind, for filters. */
export const ALERT_KINDS: readonly AlertKind[] = ['RUN_FAILED', 'TEST_FAILED', 'LATE_TABLE', 'ODD_RUN'];

/** A destination as stored (the secret included: only the delivery side reads it). */
export interface Destination {
  readonly orgId: string;
  readonly id: string;
  readonly kind: DestinationKind;
  readonly url: string;
  readonly description?: string;
  /** The alert kinds it receives; empty: every kind. */
  readonly alertKinds: readonly AlertKind[];
  /** The Standard Webhooks secret (`whsec_` + base64 of 24 random bytes). */
  readonly secret: string;
  readonly createdAt: string;
}

/** A destination as the API shows it: never the secret; a Slack URL (itself a credential) shortened. */
export interface DestinationView {
  readonly id: string;
  readonly kind: DestinationKind;
  readonly url: string;
  readonly description?: string;
  readonly alertKinds: readonly AlertKind[];
  readonly createdAt: string;
}

/** The answer to a creation: the view and, this once, the secret. */
export interface CreatedDestination extends DestinationView {
  readonly secret: string;
}

/** Secret bytes: Standard Webhooks asks for 24 to 64. */
const SECRET_BYTES = 24;

/** A new signing secret in the Standard Webhooks form. */
export const newSigningSecret = (): string => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

/** A new destination id (`wh_` + 20 hex digits: URL-safe, no meaning). */
export const newDestinationId = (): string => `wh_${randomBytes(10).toString('hex')}`;

/** The id pattern, for path parameters. */
export const DESTINATION_ID_PATTERN = /^wh_[0-9a-f]{20}$/;

/**
 * A Slack incoming webhook's URL is its credential (anyone holding it may post to the channel):
 * after creation only its origin and the first path segments are shown.
 */
const shownUrl = (destination: Destination): string => {
  if (destination.kind !== 'slack') return destination.url;
  const url = new URL(destination.url);
  const segments = url.pathname.split('/').filter(Boolean);
  return `${url.origin}/${segments.slice(0, Math.min(2, Math.max(0, segments.length - 1))).join('/')}${segments.length > 1 ? '/' : ''}…`;
};

/** What the API shows of a stored destination. */
export const destinationView = (destination: Destination): DestinationView => ({
  id: destination.id,
  kind: destination.kind,
  url: shownUrl(destination),
  ...(destination.description === undefined ? {} : { description: destination.description }),
  alertKinds: destination.alertKinds,
  createdAt: destination.createdAt,
});

/** Whether a destination takes notices of this alert kind. */
export const receives = (destination: Destination, kind: AlertKind): boolean => destination.alertKinds.length === 0 || destination.alertKinds.includes(kind);
