/**
 * @module components/json-view
 * A JSON value, pretty-printed, selectable and copyable.
 */

/** `<pre>` with the value as indented JSON. */
export const JsonView = ({ value, label }: { value: unknown; label?: string }) => (
  <pre className="json-view" aria-label={label} data-testid="json-view">
    {JSON.stringify(value, null, 2)}
  </pre>
);
