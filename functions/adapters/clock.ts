/**
 * @module clock
 * The alerts' clock: the machine's, or locally the instant written in a file when one is configured (a test of a late
 * table moves time forward by rewriting it), else the machine's clock. The file is read at every
 * call, so a change takes effect at the next check.
 */
import { readFileSync } from 'node:fs';
import type { Clock } from '#domain/alerts/ports';

/** The machine's clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock reading `file` (an ISO 8601 instant); the machine's when the file is missing or unreadable. */
export const fileClock = (file: string | undefined): Clock => {
  if (file === undefined) return systemClock;
  return {
    now: () => {
      try {
        const at = Date.parse(readFileSync(file, 'utf8').trim());
        return Number.isNaN(at) ? new Date() : new Date(at);
      } catch {
        return new Date();
      }
    },
  };
};
