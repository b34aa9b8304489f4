/**
 * @module env-number
 * Reading a numeric setting from the environment: unset means "use the default", anything that is
 * not a plain positive decimal fails loudly at start rather than being read as something else.
 */

/** The positive number in `process.env[name]`, or undefined when it is unset or empty. */
export const positiveEnvNumber = (name: string): number | undefined => {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const n = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !(n > 0)) throw new Error(`configuration: ${name} must be a positive number, not ${text}`);
  return n;
};
