/**
 * @module components/use-async
 * Loads data for a page: re-runs when its inputs change, cancels the superseded request, and
 * keeps the last error instead of throwing it.
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

/** Runs `load` whenever `key` changes (and on `reload`). */
export const useAsync = <T>(load: (signal: AbortSignal) => Promise<T>, key: string): AsyncState<T> => {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean; startedAt: number | undefined }>({
    data: undefined,
    error: undefined,
    loading: true,
    startedAt: undefined,
  });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined, startedAt: Date.now() }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, error: undefined, loading: false, startedAt: undefined }),
      (error: unknown) => !controller.signal.aborted && setState({ data: undefined, error, loading: false, startedAt: undefined }),
    );
    return () => controller.abort();
  }, [key, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
};
