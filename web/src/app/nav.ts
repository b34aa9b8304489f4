/**
 * @module app/nav
 * The console's navigation: every top-level page, in order. Lineage and Jobs are drawn from the
 * lineage graph API; a dataset's and a run's pages are reached from them.
 */

/** One entry of the navigation bar. */
export interface NavEntry {
  readonly path: string;
  readonly label: string;
  /** What the page is for (the link's title). */
  readonly title: string;
}

/** The navigation bar, left to right. */
export const NAV: readonly NavEntry[] = [
  { path: '/lineage', label: 'Lineage', title: 'Search a job or dataset and open its lineage graph' },
  { path: '/jobs', label: 'Jobs', title: 'Jobs per namespace, their runs and latest state' },
  { path: '/events', label: 'Events', title: 'The OpenLineage events lakeline received' },
  { path: '/tables', label: 'Tables', title: 'The lake\'s Iceberg tables' },
  { path: '/query', label: 'Query', title: 'Run SQL or a polars script on the lake' },
  { path: '/webhooks', label: 'Webhooks', title: 'Where alerts are delivered: webhooks and Slack, their delivery logs' },
];
