/**
 * @module subscriber-queue
 * One subscriber's queue of the in-process event feed (`in-process-feed.ts`; ADR 0045): the feed
 * hands it each stored event after the write committed (`notify`, a synchronous enqueue — the
 * request never waits for a subscriber), and one batch at a time is applied in the background, so
 * a subscriber is fresh within moments and one whose batches fail (retried on its own) holds up no
 * other. During an ingestion
 * burst a queue holds back, up to a lag bound, so the burst keeps the machine (see
 * {@link FeedConsumerOptions.busyMaxLagMs}).
 *
 * Nothing is lost when the process dies between an event's write and a subscriber's handling of
 * it: per subscriber and org, a durable watermark trails the events applied (by
 * {@link FeedConsumerOptions.replayMarginMs}, which covers requests that stamped their receipt time
 * before an earlier one committed), and on start each queue re-applies every event stored after it.
 * Handlers are idempotent, so re-applying the overlap changes nothing. An org whose queue outgrows
 * memory is caught up the same way.
 */
import { highestMark, lowestMark, markBefore } from '#domain/feed/marks';
import type { FeedEvent, FeedSubscriber, OrgMarks, StoredEventFeed } from '#domain/feed/ports';

/** What one subscriber's queue needs. */
export interface FeedConsumerDeps {
  readonly subscriber: FeedSubscriber;
  readonly feed: StoredEventFeed;
  /** Where the queue catches up from on start (trails what was applied by the replay margin). */
  readonly watermarks: OrgMarks;
  /** The highest mark applied per org, written with the watermark (the subscriber's lag is measured by it). */
  readonly applied?: OrgMarks;
  /** Hears each batch applied: the org, its size and its highest mark (the profile logs the lag). */
  onApplied?(orgId: string, events: number, highest: string): void;
  /** Every organization (the ones to catch up on start). */
  orgIds(): Promise<readonly string[]>;
  warn(message: string, fields: Record<string, unknown>): void;
  readonly now?: () => number;
}

/** Tuning of {@link SubscriberQueue}. */
export interface FeedConsumerOptions {
  /**
   * Most events per applied batch. A batch takes every due event up to this, so a model that fell
   * behind applies larger batches (one write per job, dataset and namespace per batch, whatever the
   * batch's events) and catches up (ADR 0050). @default 2000
   */
  readonly batchSize?: number;
  /** Queued events per org past which the queue is dropped and the org caught up from the store. @default 20000 */
  readonly maxQueued?: number;
  /** How far the watermark trails the events applied. @default 30000 */
  readonly replayMarginMs?: number;
  /** Least time between two watermark writes of an org. @default 1000 */
  readonly watermarkEveryMs?: number;
  /** Wait before retrying a batch the store refused. @default 1000 */
  readonly retryMs?: number;
  /**
   * An org's events stored per second above which its ingestion counts as busy: the consumer then
   * holds the org's events back, so a burst at ingestion's maximum is not slowed by the model (it
   * catches up once the burst ends); other orgs' events are applied as they come.
   * @default 100
   */
  readonly busyEventsPerSecond?: number;
  /**
   * While an org's ingestion is busy, how long its oldest queued event may wait: the consumer applies
   * none of the org's events until then, and then batches until none has waited that long. A burst shorter than this
   * runs at ingestion's full speed; a longer one pays for the model's work and the model trails it
   * by about this much. (Working a tenth of the time instead took batch ingestion from 69% of the raw
   * store, with no consumer, to 53%, and let the model fall behind without bound above 100 events/s.)
   * Sustained ingestion waits this long on every event, so it bounds the graph's lag from below:
   * 10 s before ADR 0050, now 2 s, inside the 5 s an acknowledged event may take to be in the graph
   * under sustained load. @default 2000
   */
  readonly busyMaxLagMs?: number;
  /**
   * How long a newly queued event waits while its org's ingestion is not busy: long enough for the
   * first events of a burst to show that it is one. Applied at once, they cost every burst a batch
   * of model reads and writes in its first moments (measured: seven BatchGetItems and about twenty
   * writes in each 1,000-event phase of the ingest benchmark). Well inside the 2 s in which an
   * acknowledged event is in the graph. @default 200
   */
  readonly quietDelayMs?: number;
}

/** While holding back, how often the consumer looks again whether ingestion is still busy. */
const BUSY_RECHECK_MS = 200;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const minMark = lowestMark;
const maxMark = highestMark;

/** One subscriber's queue of the in-process feed: one per process and subscriber. */
export class SubscriberQueue {
  private readonly batchSize: number;
  private readonly maxQueued: number;
  private readonly replayMarginMs: number;
  private readonly watermarkEveryMs: number;
  private readonly retryMs: number;
  private readonly busyEventsPerSecond: number;
  private readonly busyMaxLagMs: number;
  private readonly quietDelayMs: number;
  private readonly now: () => number;
  /** Per org, events notified per recent instant (the last second's), to tell a burst from a trickle. */
  private readonly recentlyStored = new Map<string, Array<{ readonly at: number; readonly events: number }>>();
  private readonly queues = new Map<string, FeedEvent[]>();
  /** When each org's queued events arrived, oldest first (counts in the queue's order). */
  private readonly arrivals = new Map<string, Array<{ at: number; count: number }>>();
  /** Orgs to read from the store after their watermark (on start, or after a queue overflow), and since when. */
  private readonly toCatchUp = new Map<string, number>();
  /** Watermarks decided but not written yet (writes are spaced out), and when each org's was last written. */
  private readonly pendingMarks = new Map<string, string>();
  /** The highest mark applied per org, not written yet (written with the watermark). */
  private readonly pendingApplied = new Map<string, string>();
  /** Names the subscriber in log lines. */
  private readonly label: string;
  private readonly writtenAt = new Map<string, number>();
  private running: Promise<void> | undefined;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];
  /** Ends the current rest early (stopping does not wait out a rest). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly deps: FeedConsumerDeps,
    options: FeedConsumerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 2_000;
    this.maxQueued = options.maxQueued ?? 20_000;
    this.replayMarginMs = options.replayMarginMs ?? 30_000;
    this.watermarkEveryMs = options.watermarkEveryMs ?? 1_000;
    this.retryMs = options.retryMs ?? 1_000;
    this.busyEventsPerSecond = options.busyEventsPerSecond ?? 100;
    this.busyMaxLagMs = options.busyMaxLagMs ?? 2_000;
    this.quietDelayMs = options.quietDelayMs ?? 200;
    this.now = deps.now ?? Date.now;
    this.label = `feed subscriber ${deps.subscriber.name}`;
  }

  /**
   * Takes events the store has just committed. Returns at once: the model is updated in the
   * background (never on the caller's path).
   */
  notify(orgId: string, events: readonly FeedEvent[]): void {
    if (this.stopped || events.length === 0) return;
    const now = this.now();
    const recent = this.lastSecondOf(orgId, now) ?? [];
    recent.push({ at: now, events: events.length });
    this.recentlyStored.set(orgId, recent);
    const queue = this.queues.get(orgId) ?? [];
    queue.push(...events);
    if (queue.length > this.maxQueued) {
      this.queues.delete(orgId);
      this.arrivals.delete(orgId);
      if (!this.toCatchUp.has(orgId)) this.toCatchUp.set(orgId, now);
    } else {
      this.queues.set(orgId, queue);
      const arrivals = this.arrivals.get(orgId) ?? [];
      arrivals.push({ at: now, count: events.length });
      this.arrivals.set(orgId, arrivals);
    }
    this.kick();
  }

  /**
   * Catches every organization up from its watermark, in the background (the stack calls it on
   * start). Resolves once the organizations are listed and their catch-up is queued.
   */
  start(): Promise<void> {
    return this.deps
      .orgIds()
      .then((orgs) => {
        for (const org of orgs) if (!this.toCatchUp.has(org)) this.toCatchUp.set(org, this.now());
        this.kick();
      })
      .catch((error: unknown) => this.deps.warn(`${this.label}: organizations not listed; the next start catches up`, { error }));
  }

  /** Resolves once nothing is queued or being applied. */
  whenIdle(): Promise<void> {
    if (!this.running && !this.hasWork()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops after the batch in flight and writes the watermarks decided so far. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    await this.flushMarks(true);
  }

  private rest(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(), ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * The org's notifications of the last second, older ones dropped in place (they are appended in
   * time order, so from the front: this runs on every ingestion request); undefined when none.
   */
  private lastSecondOf(orgId: string, now: number): Array<{ readonly at: number; readonly events: number }> | undefined {
    const recent = this.recentlyStored.get(orgId);
    if (recent === undefined) return undefined;
    let stale = 0;
    while (stale < recent.length && (recent[stale] as { at: number }).at < now - 1_000) stale++;
    if (stale > 0) recent.splice(0, stale);
    if (recent.length > 0) return recent;
    this.recentlyStored.delete(orgId);
    return undefined;
  }

  /** Whether more than `busyEventsPerSecond` of the org's events were stored in the last second. */
  private ingestionBusy(orgId: string): boolean {
    return (this.lastSecondOf(orgId, this.now()) ?? []).reduce((sum, r) => sum + r.events, 0) > this.busyEventsPerSecond;
  }

  /** How long the org's work may still wait (0: due now): up to the lag bound while its ingestion is busy, else the quiet delay. */
  private dueInMs(orgId: string, waitingSince: number): number {
    const bound = this.ingestionBusy(orgId) ? this.busyMaxLagMs : this.quietDelayMs;
    return Math.max(0, waitingSince + bound - this.now());
  }

  /**
   * The work to do next: the first org to catch up, else the first with queued events (orgs take
   * turns), whose work is due; or, when none is, how long until one is.
   */
  private nextDue(): { readonly orgId?: string; readonly catchUp: boolean; readonly waitMs: number } {
    let waitMs = Number.POSITIVE_INFINITY;
    for (const [orgId, since] of this.toCatchUp) {
      const due = this.dueInMs(orgId, since);
      if (due === 0) return { orgId, catchUp: true, waitMs: 0 };
      waitMs = Math.min(waitMs, due);
    }
    for (const [orgId, queue] of this.queues) {
      if (queue.length === 0) continue;
      // Unknown arrival (0) counts as waiting since long ago: due.
      const due = this.dueInMs(orgId, this.arrivals.get(orgId)?.[0]?.at ?? 0);
      if (due === 0) return { orgId, catchUp: false, waitMs: 0 };
      waitMs = Math.min(waitMs, due);
    }
    return { catchUp: false, waitMs };
  }

  private hasWork(): boolean {
    return this.toCatchUp.size > 0 || [...this.queues.values()].some((q) => q.length > 0);
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.pump())
      .catch((error: unknown) => this.deps.warn(`${this.label}: consumer stopped on an error; the next event restarts it`, { error }))
      .finally(() => {
        this.running = undefined;
        if (this.hasWork() && !this.stopped) this.kick();
        else for (const wake of this.idleWaiters.splice(0)) wake();
      });
  }

  private async pump(): Promise<void> {
    while (!this.stopped && this.hasWork()) {
      // While an org's ingestion is busy its model waits (up to the lag bound) rather than take the
      // cores that ingestion needs, and catches up once the burst ends; other orgs are not held.
      const next = this.nextDue();
      if (next.orgId === undefined) {
        await this.rest(Math.min(next.waitMs, BUSY_RECHECK_MS));
        continue;
      }
      if (next.catchUp) await this.catchUp(next.orgId);
      else await this.applyQueued(next.orgId);
      await this.flushMarks(false);
    }
    await this.flushMarks(true);
  }

  /** Forgets the arrival times of the first `count` events of an org's queue (they were taken). */
  private taken(orgId: string, count: number): void {
    const arrivals = this.arrivals.get(orgId) ?? [];
    let left = count;
    while (left > 0 && arrivals.length > 0) {
      const first = arrivals[0] as { at: number; count: number };
      if (first.count > left) {
        arrivals[0] = { at: first.at, count: first.count - left };
        left = 0;
      } else {
        arrivals.shift();
        left -= first.count;
      }
    }
    if (arrivals.length === 0) this.arrivals.delete(orgId);
  }

  /** Applies the next batch of an org's queued events (orgs take turns: a served org goes to the back). */
  private async applyQueued(orgId: string): Promise<void> {
    const queue = this.queues.get(orgId);
    if (queue === undefined || queue.length === 0) return;
    const batch = queue.splice(0, this.batchSize);
    this.queues.delete(orgId);
    if (queue.length > 0) this.queues.set(orgId, queue);
    try {
      await this.deps.subscriber.handle(orgId, batch);
    } catch (error) {
      this.deps.warn(`${this.label}: batch not applied; retrying`, { orgId, events: batch.length, error });
      this.queues.set(orgId, [...batch, ...(this.queues.get(orgId) ?? [])]);
      await sleep(this.retryMs);
      return;
    }
    this.deps.onApplied?.(orgId, batch.length, maxMark(batch) as string);
    // While the org is caught up from the store, only the catch-up moves its watermark.
    if (this.toCatchUp.has(orgId)) return;
    this.taken(orgId, batch.length);
    // Safe up to the lowest event still queued for the org (a later batch may hold an earlier mark).
    const remaining = this.queues.get(orgId) ?? [];
    const lowestQueued = minMark(remaining);
    const high = maxMark(batch) as string;
    this.decideMark(orgId, lowestQueued !== undefined && lowestQueued < high ? lowestQueued : high, high);
  }

  /** Re-applies every event of the org stored after its watermark. */
  private async catchUp(orgId: string): Promise<void> {
    try {
      const from = (await this.deps.watermarks.read(orgId)) ?? '';
      for await (const batch of this.deps.feed.after(orgId, from, this.batchSize)) {
        await this.deps.subscriber.handle(orgId, batch);
        const high = maxMark(batch) as string;
        this.deps.onApplied?.(orgId, batch.length, high);
        this.decideMark(orgId, high, high);
        await this.flushMarks(false);
        if (this.stopped) return;
      }
      this.toCatchUp.delete(orgId);
    } catch (error) {
      this.deps.warn(`${this.label}: catch-up failed; retrying`, { orgId, error });
      await sleep(this.retryMs);
    }
  }

  /** `safeUpTo`: every event of the org below it was applied; `applied`: the highest applied (the lag's measure). */
  private decideMark(orgId: string, safeUpTo: string, applied: string): void {
    this.pendingMarks.set(orgId, markBefore(safeUpTo, this.replayMarginMs));
    const before = this.pendingApplied.get(orgId);
    if (before === undefined || applied > before) this.pendingApplied.set(orgId, applied);
  }

  private async flushMarks(all: boolean): Promise<void> {
    for (const [orgId, mark] of [...this.pendingMarks]) {
      if (!all && this.now() - (this.writtenAt.get(orgId) ?? 0) < this.watermarkEveryMs) continue;
      try {
        const applied = this.pendingApplied.get(orgId);
        await this.deps.watermarks.advance(orgId, mark);
        if (applied !== undefined) await this.deps.applied?.advance(orgId, applied);
        if (this.pendingMarks.get(orgId) === mark) this.pendingMarks.delete(orgId);
        if (this.pendingApplied.get(orgId) === applied) this.pendingApplied.delete(orgId);
        this.writtenAt.set(orgId, this.now());
      } catch (error) {
        // A watermark left behind only means more events are re-applied on the next start.
        this.deps.warn(`${this.label}: watermark not written`, { orgId, error });
      }
    }
  }
}
