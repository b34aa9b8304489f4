/**
 * @module file-alert-notifier
 * The local stack's alert notifier until notifications (webhooks, Slack: `domain/notifications`)
 * take its place: each notice appended as one JSON line to `<home>/alert-notices.jsonl`, durably
 * (the append is synced before `notify` returns), a repeat of the same (alertId, sequence) dropped.
 * One can follow it (`tail -f`), and the HTTP tests read it to see which notices were raised.
 */
import { appendFileSync, closeSync, existsSync, fsyncSync, openSync, readFileSync } from 'node:fs';
import type { AlertNotice, AlertNotifier } from '#domain/notifications/ports';

/** Appends notices to a JSON-lines file. */
export class FileAlertNotifier implements AlertNotifier {
  private sent: Set<string> | undefined;

  constructor(private readonly file: string) {}

  private known(): Set<string> {
    if (this.sent) return this.sent;
    const lines = existsSync(this.file) ? readFileSync(this.file, 'utf8').split('\n').filter((l) => l.trim() !== '') : [];
    this.sent = new Set(
      lines.flatMap((line) => {
        try {
          const notice = JSON.parse(line) as AlertNotice;
          return [`${notice.alertId}#${notice.sequence}`];
        } catch {
          // A line torn by a crash mid-append: its notice is sent again.
          return [];
        }
      }),
    );
    return this.sent;
  }

  notify(notice: AlertNotice): Promise<void> {
    const id = `${notice.alertId}#${notice.sequence}`;
    const sent = this.known();
    if (sent.has(id)) return Promise.resolve();
    appendFileSync(this.file, `${JSON.stringify(notice)}\n`);
    const fd = openSync(this.file, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    sent.add(id);
    return Promise.resolve();
  }
}
