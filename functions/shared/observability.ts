/**
 * @module observability
 * One structured logger for the service, created once. It writes JSON lines (CloudWatch parses
 * them) and never logs request headers or bodies, so credentials cannot leak into logs.
 */

/** How much the logger writes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** What the logger is told at cold start. */
export interface ObservabilitySettings {
  readonly logLevel: LogLevel;
}

// `info` until the composition root pushes the deployment's settings in, so a line logged before
// that (or in a process that never loads the configuration) is still written.
let threshold: LogLevel = 'info';

/**
 * Sets the logger's level, once per cold start (the composition root does, from the
 * configuration): the logger itself never reads the environment.
 */
export const configureObservability = (settings: ObservabilitySettings): void => {
  threshold = settings.logLevel;
};

/** Keys whose values are always replaced before logging, wherever they appear. */
const SECRET_KEYS = /authorization|cookie|secret|token|password|apikey|api_key/i;

const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  // The cause too: a 503 carries the store's own error there (see TransientError), which the log must keep.
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, ...(value.cause === undefined ? {} : { cause: redact(value.cause, depth + 1) }) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1)]));
};

const write = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
  if (ORDER[level] < ORDER[threshold]) return;
  const line = JSON.stringify({ level, message, service: 'lakeline', time: new Date().toISOString(), ...(redact(fields ?? {}) as object) });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
};

/** The service logger. */
export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
