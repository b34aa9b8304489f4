/**
 * @module subscribers
 * The event feed's subscribers (ADR 0045), one list for both profiles' roots and the CLI's
 * `feed replay`: each is a name and a handler of one org's batch of stored events (the lineage
 * model, then alert evaluation). The lineage lake tables join here (in AWS each also gets a queue and a Lambda: `lib/event-feed.ts`).
 */
import type { FeedSubscriber } from '#domain/feed/ports';
import type { ApplySummary } from '#domain/lineage-graph/apply';
import { lineageModelSubscriber } from '#domain/lineage-graph/feed-subscriber';
import { alertsSubscriber } from '#domain/alerts/feed-subscriber';
import { lineageTablesSubscriber } from '#domain/lineage-tables/feed-subscriber';
import type { ExportOutcome } from '#domain/lineage-tables/ports';
import type { SubscriberSources } from './ports.ts';

/** How the profile observes its subscribers (the AWS consumer logs each batch's summary). */
export interface SubscriberHooks {
  readonly onLineageApplied?: (orgId: string, summary: ApplySummary) => void;
  readonly onLineageExported?: (orgId: string, outcome: ExportOutcome) => void;
}

/** Every subscriber, in the order the in-process feed serves them. */
export const feedSubscribers = (sources: SubscriberSources, hooks: SubscriberHooks = {}): FeedSubscriber[] => [
  lineageModelSubscriber(sources.lineageModel, hooks.onLineageApplied),
  ...(sources.alerts ? [alertsSubscriber(sources.alerts)] : []),
  ...(sources.lineageTables ? [lineageTablesSubscriber(sources.lineageTables, hooks.onLineageExported)] : []),
];
