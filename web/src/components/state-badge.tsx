/**
 * @module components/state-badge
 * A run state as a coloured badge (failures stand out).
 */

/** `COMPLETE`, `FAIL`, `RUNNING`… as a badge. */
export const StateBadge = ({ state }: { state: string }) => <span className={`state-badge state-${state.toLowerCase()}`}>{state}</span>;
