/**
 * @module components/empty-state
 * What a page shows when there is nothing to show: what is missing and what to do next.
 */
import type { ReactNode } from 'react';

/** A titled box with next steps as children. */
export const EmptyState = ({ title, children }: { title: string; children?: ReactNode }) => (
  <section className="empty-state" data-testid="empty-state">
    <h2>{title}</h2>
    {children}
  </section>
);
