/**
 * @module components/lineage-api-pending
 * The place of a page that the lineage graph API (issue 14: `GET /api/v1/lineage`, `/api/v1/search`,
 * `/api/v1/namespaces/…`) fills in, until that API exists: what the page will show, which endpoint
 * it needs, and what the console offers meanwhile.
 */
import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';

/** A titled notice naming the pending endpoint. */
export const LineageApiPending = ({ title, endpoint, children }: { title: string; endpoint: string; children?: ReactNode }) => (
  <EmptyState title={title}>
    <p>
      This page is drawn from lakeline's lineage graph API (<code>{endpoint}</code>), which this server does not serve yet. Until then the{' '}
      <a href="/events">events</a> hold every run, job and dataset lakeline received.
    </p>
    {children}
  </EmptyState>
);
