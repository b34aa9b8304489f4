/**
 * @module app/layout
 * The frame of every signed-in page: the navigation bar, who is signed in and how, sign-out, and
 * the page. Signed-out visitors are sent to the sign-in page (and back afterwards).
 */
import { NavLink, Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context.tsx';
import { Progress } from '../components/progress.tsx';
import { NAV } from './nav.ts';

/** `ll_3f2a…` — the key id's start only; the secret part is never shown. */
const keyLabel = (apiKey: string): string => `${apiKey.slice(0, 7)}…`;

/** The signed-in frame. */
export const Layout = () => {
  const auth = useAuth();
  const location = useLocation();
  if (auth.status === 'checking') return <Progress label="Checking your session…" />;
  if (auth.status === 'signed-out') return <Navigate to="/sign-in" replace state={{ from: `${location.pathname}${location.search}` }} />;
  return (
    <div className="app">
      <header className="topbar">
        <NavLink to="/" className="brand">
          <img src="/favicon.svg" alt="" width="22" height="22" />
          lakeline
        </NavLink>
        <nav aria-label="Main">
          {NAV.map((entry) => (
            <NavLink key={entry.path} to={entry.path} title={entry.title} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
              {entry.label}
            </NavLink>
          ))}
        </nav>
        <div className="whoami" data-testid="whoami">
          {auth.credentials.kind === 'key' ? <span title="API key held for this browser session">API key {keyLabel(auth.credentials.apiKey)}</span> : <span title="lakeline_session cookie">Session cookie</span>}
          <button type="button" className="link-button" onClick={auth.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </div>
  );
};
