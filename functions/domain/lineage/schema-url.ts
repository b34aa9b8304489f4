/**
 * @module schema-url
 * Reads the spec version an event claims from its `schemaURL`, e.g. `2-0-2` from
 * `https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent`.
 */

// OpenLineage versions its spec as MODEL-REVISION-ADDITION (spec/Versioning.md).
const VERSION_SEGMENT = /^\d+-\d+-\d+$/;

/**
 * The version segment of a schema URL: the last path segment shaped `N-N-N`. Both fragment styles
 * (`#/definitions/RunEvent` before 2-0-0, `#/$defs/RunEvent` after) carry it in the path.
 *
 * @param schemaUrl - the event's `schemaURL`, if any
 * @returns the version (`1-0-5`), or `''` when the event has no schemaURL or the URL has no version
 *   segment (`http://test.schema.url`)
 */
export function schemaVersion(schemaUrl: unknown): string {
  if (typeof schemaUrl !== 'string') return '';
  const path = schemaUrl.split(/[?#]/, 1)[0] ?? '';
  const segments = path.split('/');
  for (let i = segments.length - 1; i >= 0; i--) {
    const segment = segments[i] ?? '';
    if (VERSION_SEGMENT.test(segment)) return segment;
  }
  return '';
}

