/**
 * @module pages/sign-in/sign-in-page
 * Sign in with an API key (checked against the API, then held for this browser session only), or
 * continue with lakeline's session cookie when the browser has a valid one.
 */
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../../auth/auth-context.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { Progress } from '../../components/progress.tsx';

/** Where to go after signing in: back where the visitor came from, else the events. */
const useReturnPath = (): string => {
  const state = useLocation().state as { from?: unknown } | null;
  return typeof state?.from === 'string' && state.from.startsWith('/') && !state.from.startsWith('/sign-in') ? state.from : '/events';
};

/** The sign-in page. */
export const SignInPage = () => {
  const auth = useAuth();
  const navigate = useNavigate();
  const returnPath = useReturnPath();
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  if (auth.status === 'signed-in' && !busy) return <Navigate to={returnPath} replace />;

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      void navigate(returnPath, { replace: true });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (apiKey.trim() === '') return;
    void attempt(() => auth.signInWithKey(apiKey));
  };

  return (
    <div className="sign-in">
      <div className="sign-in-card">
        <h1>
          <img src="/favicon.svg" alt="" width="28" height="28" /> lakeline console
        </h1>
        <p className="muted">Lineage, runs, events and tables of your lakeline, and queries on its lake.</p>
        <form method="post" onSubmit={submit} aria-label="Sign in">
          <label htmlFor="api-key">API key</label>
          <input
            id="api-key"
            name="api-key"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="ll_…"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            required
          />
          <button type="submit" className="primary" disabled={busy || apiKey.trim() === ''}>
            Sign in
          </button>
        </form>
        <p className="hint">
          The key is kept for this browser session only (closing the tab forgets it) and is sent only in the <code>Authorization</code> header. <code>npm run local</code> prints
          the demo key; <code>npx lakeline keys create --org &lt;org id&gt;</code> makes another.
        </p>
        {auth.status === 'signed-out' && auth.sessionAvailable ? (
          <div className="session-choice">
            <p>This browser holds a lakeline session cookie.</p>
            <button type="button" onClick={() => void attempt(auth.signInWithSession)} disabled={busy}>
              Continue with the session cookie
            </button>
            <p className="hint">A session may read events and run queries; tables and run results need an API key.</p>
          </div>
        ) : null}
        {busy ? <Progress label="Checking the credentials with the API…" /> : null}
        {error ? <ErrorPanel error={error} title="Sign-in failed" signInHint={false} /> : null}
      </div>
    </div>
  );
};
