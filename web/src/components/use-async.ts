/**
 * @module components/use-async
 * Loads data for a page: re-runs when its inputs (`key`) change, cancels the superseded request,
 * and keeps the last error instead of throwing it. Data answers the key it was loaded for only, so
 * a page never shows the previous inputs' rows as the new ones; a reload keeps them on screen.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** What a page renders from a load. */
export interface AsyncState<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  /** When the load in progress started (epoch ms), for progress displays. */
  readonly startedAt: number | undefined;
  reload(): void;
}

interface Loaded<T> {
  readonly key: string;
  readonly data: T | undefined;
  readonly error: unknown;
  readonly done: boolean;
  readonly startedAt: number | undefined;
}

/** Runs `load` whenever `key` changes (and on `reload`). */
export const useAsync = <T>(load: (signal: AbortSignal) => Promise<T>, key: string): AsyncState<T> => {
  const [state, setState] = useState<Loaded<T>>({ key, data: undefined, error: undefined, done: false, startedAt: undefined });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, error: undefined, done: false, startedAt: Date.now() }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ key, data, error: undefined, done: true, startedAt: undefined }),
      (error: unknown) => !controller.signal.aborted && setState({ key, data: undefined, error, done: true, startedAt: undefined }),
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: !current || !state.done,
    startedAt: current ? state.startedAt : undefined,
    reload,
  };
};
