/**
 * @module once
 * `once(build)`: a getter that builds its value on first use and returns the same value after.
 * The composition roots use it so a port is built once per cold start, and only if a handler
 * needs it.
 */

/** Wraps `build` so it runs at most once; later calls return the first result. */
export const once = <T>(build: () => T): (() => T) => {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
};
