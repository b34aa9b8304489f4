/**
 * @module components/key-required
 * Shown where a cookie session may not go: lakeline accepts its session cookie only on the events,
 * routed query and legacy query endpoints.
 */
import { Link } from 'react-router';
import { EmptyState } from './empty-state.tsx';

/** "This page needs an API key", naming the endpoint. */
export const KeyRequired = ({ what, routeKey }: { what: string; routeKey: string }) => (
  <EmptyState title={`${what} needs an API key`}>
    <p>
      You are signed in with a session cookie, which lakeline accepts only for the events, the routed query and the legacy query endpoints; <code>{routeKey}</code>{' '}
      takes an API key. <Link to="/sign-in">Sign out and sign in with an API key</Link> to use this page.
    </p>
  </EmptyState>
);
