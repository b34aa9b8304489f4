/**
 * @module components/error-panel
 * Shows an error as the API worded it: the HTTP status, the API's own words verbatim, its details,
 * and which call failed. A 401 adds the way back to signing in.
 */
import { Link } from 'react-router';
import { describeError } from '../api/errors.ts';

/** An error box (`role="alert"`). */
export const ErrorPanel = ({ error, title = 'The API answered with an error', signInHint = true }: { error: unknown; title?: string; signInHint?: boolean }) => {
  const { status, words, details, request } = describeError(error);
  return (
    <div className="error-panel" role="alert">
      <div className="error-title">
        {title}
        {status > 0 ? <span className="error-status">HTTP {status}</span> : <span className="error-status">no answer</span>}
      </div>
      <pre className="error-words" data-testid="api-error">{words}</pre>
      {details && details !== words ? <pre className="error-details">{details}</pre> : null}
      {request ? <div className="error-request">{request}</div> : null}
      {status === 401 && signInHint ? (
        <div className="error-hint">
          The credentials were not accepted. <Link to="/sign-in">Sign in again</Link>.
        </div>
      ) : null}
    </div>
  );
};
