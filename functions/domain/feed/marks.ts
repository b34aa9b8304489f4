/**
 * @module feed/marks
 * Positions in an organization's feed. A mark is an event's receipt time (fixed width, so marks
 * sort as text) then `#` and its id; a mark ending in `#` is below every event stored at that
 * instant.
 */
import { formatUtcMicros } from '../lineage/event-time.ts';

/** An event's place in its org's feed: its receipt time, then its id. */
export const feedMarkOf = (event: { readonly received_at: string; readonly id: string }): string => `${event.received_at}#${event.id}`;

/** The receipt time a mark stands for, in epoch milliseconds (microseconds dropped). */
export const millisOfMark = (mark: string): number => {
  const hash = mark.indexOf('#');
  const receivedAt = hash < 0 ? mark : mark.slice(0, hash);
  return Date.parse(`${receivedAt.slice(0, 23)}Z`);
};

/** The mark `ms` milliseconds before `mark` (below every event stored at or after that instant). */
export const markBefore = (mark: string, ms: number): string => {
  const receivedAt = mark.slice(0, mark.indexOf('#'));
  const micros = BigInt(Date.parse(`${receivedAt.slice(0, 23)}Z`)) * 1000n + BigInt(receivedAt.slice(23, 26) || '0') - BigInt(ms) * 1000n;
  return `${formatUtcMicros(micros > 0n ? micros : 0n)}#`;
};

/** The mark below every event stored at or after `at` (epoch milliseconds). */
export const markAt = (at: number): string => `${formatUtcMicros(BigInt(at) * 1000n)}#`;

/** The highest mark of a batch (undefined when empty). */
export const highestMark = (events: readonly { readonly received_at: string; readonly id: string }[]): string | undefined =>
  events.reduce<string | undefined>((high, e) => (high === undefined || feedMarkOf(e) > high ? feedMarkOf(e) : high), undefined);

/** The lowest mark of a batch (undefined when empty). */
export const lowestMark = (events: readonly { readonly received_at: string; readonly id: string }[]): string | undefined =>
  events.reduce<string | undefined>((low, e) => (low === undefined || feedMarkOf(e) < low ? feedMarkOf(e) : low), undefined);
