/**
 * @module lazy
 * How the composition roots build things: on first use, once. A function touches only the ports
 * its handler reads (the runs API never starts a Spark engine, a listing never opens the lake),
 * and nothing is built twice. {@link forgetBuilt} drops every built value, for a local stack that
 * is restarted in the same process with a new configuration.
 */

const built = new Set<{ reset(): void }>();

/** Wraps `build` so it runs at most once; later calls return the first result. */
export const lazily = <T>(build: () => T): (() => T) => {
  let value: { readonly current: T } | undefined;
  built.add({ reset: () => (value = undefined) });
  return () => (value ??= { current: build() }).current;
};

/**
 * Like {@link lazily} for asynchronous work, except that a failure is not kept: the next call
 * tries again (a secret read at cold start may meet a passing outage; the container must recover).
 */
export const lazilyUntilFailed = <T>(build: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | undefined;
  built.add({ reset: () => (pending = undefined) });
  return () =>
    (pending ??= build().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
};

/**
 * An object whose members are built on first access, each once: `builders.catalog()` runs when
 * `.catalog` is first read. It is how a group of ports is written top to bottom without building
 * the members its caller does not read.
 */
export const builtOnFirstUse = <T extends object>(builders: { readonly [K in keyof T]: () => T[K] }): T => {
  const object = {} as T;
  for (const key of Object.keys(builders) as (keyof T & string)[]) {
    const member = lazily(builders[key]);
    Object.defineProperty(object, key, { enumerable: true, get: member });
  }
  return object;
};

/** Forgets every value built so far (the local stack does this when it starts with a new configuration). */
export const forgetBuilt = (): void => {
  for (const entry of built) entry.reset();
};
