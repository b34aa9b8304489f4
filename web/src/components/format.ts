/**
 * @module components/format
 * How the console writes numbers, sizes, durations and times.
 */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** `1536` → `1.5 KiB`; accepts the API's byte counts carried as strings. */
export const formatBytes = (bytes: number | string): string => {
  let value = Number(bytes);
  if (!Number.isFinite(value)) return String(bytes);
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${UNITS[unit]}`;
};

/** `60175` → `60,175`; strings of digits (64-bit counts) are grouped without losing digits. */
export const formatCount = (count: number | string): string =>
  typeof count === 'number' ? count.toLocaleString('en-US') : /^\d+$/.test(count) ? count.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : count;

/** `83250` → `1 min 23 s`; under a second in ms. */
export const formatDuration = (ms: number): string => {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

/** An ISO time in the reader's zone, to the second: `2026-11-23 10:00:00`. */
export const formatTime = (iso: string | null | undefined): string => {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
};

/** A cell value of a result row, as text. */
export const formatCell = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};
