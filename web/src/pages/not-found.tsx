/**
 * @module pages/not-found
 * A path the console does not know.
 */
import { Link, useLocation } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';

/** The console's 404 page. */
export const NotFoundPage = () => {
  const { pathname } = useLocation();
  return (
    <EmptyState title="No such page">
      <p>
        The console has no page at <code>{pathname}</code>. Go to the <Link to="/events">events</Link>, the <Link to="/tables">tables</Link> or the{' '}
        <Link to="/query">query console</Link>.
      </p>
    </EmptyState>
  );
};
