/**
 * @module app/routes
 * The console's pages and their paths. The local gateway and CloudFront answer every
 * extension-less path with index.html, so each path here can be opened directly.
 */
import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Progress } from '../components/progress.tsx';
import { DatasetPage } from '../pages/datasets/dataset-page.tsx';
import { EventsPage } from '../pages/events/events-page.tsx';
import { JobsPage } from '../pages/jobs/jobs-page.tsx';
import { RunPage } from '../pages/jobs/run-page.tsx';
import { LineagePage } from '../pages/lineage/lineage-page.tsx';
import { NotFoundPage } from '../pages/not-found.tsx';
import { SignInPage } from '../pages/sign-in/sign-in-page.tsx';
import { TablePage } from '../pages/tables/table-page.tsx';
import { TablesPage } from '../pages/tables/tables-page.tsx';
import { WebhooksPage } from '../pages/webhooks/webhooks-page.tsx';
import { Layout } from './layout.tsx';

// The query console carries the editor (CodeMirror): loaded when first opened.
const QueryPage = lazy(() => import('../pages/query/query-page.tsx').then((m) => ({ default: m.QueryPage })));

/** The router of the console. */
export const createRouter = () =>
  createBrowserRouter([
    { path: '/sign-in', element: <SignInPage /> },
    {
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/events" replace /> },
        { path: 'events', element: <EventsPage /> },
        { path: 'tables', element: <TablesPage /> },
        { path: 'tables/:namespace/:table', element: <TablePage /> },
        {
          path: 'query',
          element: (
            <Suspense fallback={<Progress label="Loading the query console…" />}>
              <QueryPage />
            </Suspense>
          ),
        },
        { path: 'lineage', element: <LineagePage /> },
        // Jobs and datasets travel in the query string: their names hold dots (pages/lineage/lineage-links.ts).
        { path: 'jobs', element: <JobsPage /> },
        { path: 'lineage-runs/:runId', element: <RunPage /> },
        { path: 'datasets', element: <DatasetPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
