// integration / integration_version from the producer URI and the processing_engine run facet.
import { describe, expect, it } from 'vitest';
import { deriveIntegration, producerInfo, UNKNOWN_INTEGRATION } from '#domain/lineage/integration';
import { loadExamples } from './examples.ts';

/** Producer URI → [integration, integration_version] with no run facets to fall back on. */
const PRODUCERS: readonly (readonly [string, string, string])[] = [
  // Found in shared/openlineage/examples.
  ['https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client', 'client', '1-0-0'],
  ['https://github.com/OpenLineage/OpenLineage/tree/0.0.1/client/python', 'python', '0.0.1'],
  // OpenLineage integrations and clients.
  ['https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark', 'spark', '1.19.0'],
  ['https://github.com/OpenLineage/OpenLineage/tree/0.3.1/integration/airflow', 'airflow', '0.3.1'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.2.3/client/python', 'python', '1.2.3'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.10.2/client/java', 'java', '1.10.2'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.8.0/integration/dbt', 'dbt', '1.8.0'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.9.1/integration/flink', 'flink', '1.9.1'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.5.0/integration/dagster', 'dagster', '1.5.0'],
  ['https://github.com/OpenLineage/OpenLineage/tree/0.2.3/integration/great_expectations', 'great_expectations', '0.2.3'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.4.1/proxy/fluentd', 'fluentd', '1.4.1'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.20.0-SNAPSHOT/integration/spark', 'spark', '1.20.0-SNAPSHOT'],
  ['https://github.com/OpenLineage/OpenLineage/tree/v0.3.1rc1/integration/airflow', 'airflow', '0.3.1rc1'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark/', 'spark', '1.19.0'],
  ['http://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark', 'spark', '1.19.0'],
  ['https://GitHub.com/openlineage/openlineage/tree/1.19.0/integration/Spark', 'spark', '1.19.0'],
  ['https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark?tab=readme#usage', 'spark', '1.19.0'],
  // No version in the URI: a branch, a commit, or no ref at all.
  ['https://github.com/OpenLineage/OpenLineage/tree/main/integration/spark', 'spark', ''],
  ['https://github.com/OpenLineage/OpenLineage/tree/1e5fe1b/integration/spark', 'spark', ''],
  ['https://github.com/OpenLineage/OpenLineage', UNKNOWN_INTEGRATION, ''],
  // Airflow's own provider package.
  ['https://github.com/apache/airflow/tree/providers-openlineage/1.8.0', 'airflow', '1.8.0'],
  ['https://github.com/apache/airflow/tree/providers-openlineage/1.14.0rc1', 'airflow', '1.14.0rc1'],
  // Other repositories on git hosts: the repository names the integration.
  ['https://github.com/MarquezProject/marquez/blob/main/api/src/main/java/marquez/MarquezApp.java', 'marquez', ''],
  ['https://github.com/MarquezProject/marquez/tree/0.50.0/clients/java', 'marquez', '0.50.0'],
  ['https://github.com/trinodb/trino/plugin/trino-openlineage', 'trino', ''],
  ['https://github.com/acme/etl-runner.git', 'etl-runner', ''],
  ['https://github.com/acme/etl-runner/releases/tag/v2.4.0', 'etl-runner', '2.4.0'],
  ['https://gitlab.com/acme/etl-runner/-/tree/3.1.0/src', 'etl-runner', '3.1.0'],
  ['https://bitbucket.org/acme/etl-runner/src/4.0.1/', 'etl-runner', '4.0.1'],
  // Not a git host, not a URL, or not enough path: nothing to go on.
  ['https://lakeline.example.com/producers/sql-router/0.1.0', UNKNOWN_INTEGRATION, ''],
  ['urn:producer:custom-tool', UNKNOWN_INTEGRATION, ''],
  ['https://github.com/acme', UNKNOWN_INTEGRATION, ''],
  ['not a uri at all', UNKNOWN_INTEGRATION, ''],
  ['', UNKNOWN_INTEGRATION, ''],
];

describe('deriveIntegration from the producer URI', () => {
  it.each(PRODUCERS)('%s → %s %s', (producer, integration, version) => {
    expect(deriveIntegration(producer, undefined)).toEqual({ integration, integration_version: version });
  });

  it('covers every producer URI that occurs in the example files', () => {
    // Prepare
    const found = new Set(
      loadExamples()
        .map((e) => (JSON.parse(e.text) as { producer?: unknown }).producer)
        .filter((p): p is string => typeof p === 'string'),
    );
    // Act
    const covered = new Set(PRODUCERS.map(([producer]) => producer));
    // Assess
    expect(found.size).toBeGreaterThan(0);
    expect([...found].filter((p) => !covered.has(p))).toEqual([]);
  });
});

describe('deriveIntegration falling back to the processing_engine run facet', () => {
  const engine = (fields: Record<string, unknown>) => ({
    processing_engine: { _producer: 'https://example.com/p', _schemaURL: 'https://example.com/s', ...fields },
  });

  it('takes name and adapter version when the URI names nothing', () => {
    const facets = engine({ name: 'Airflow', version: '2.9.0', openlineageAdapterVersion: '1.8.0' });
    expect(deriveIntegration('https://scheduler.example.com', facets)).toEqual({ integration: 'airflow', integration_version: '1.8.0' });
  });

  it('takes the engine version when the facet has no adapter version', () => {
    const facets = engine({ name: 'spark', version: '3.5.1' });
    expect(deriveIntegration('urn:x', facets)).toEqual({ integration: 'spark', integration_version: '3.5.1' });
  });

  it('fills only the version when the URI names the integration but carries no version', () => {
    const facets = engine({ name: 'spark', version: '3.5.1', openlineageAdapterVersion: '1.20.0' });
    const producer = 'https://github.com/OpenLineage/OpenLineage/tree/main/integration/spark';
    expect(deriveIntegration(producer, facets)).toEqual({ integration: 'spark', integration_version: '1.20.0' });
  });

  it('prefers the URI when both say something', () => {
    const facets = engine({ name: 'Spark', version: '3.5.1', openlineageAdapterVersion: '1.18.0' });
    const producer = 'https://github.com/OpenLineage/OpenLineage/tree/1.19.0/integration/spark';
    expect(deriveIntegration(producer, facets)).toEqual({ integration: 'spark', integration_version: '1.19.0' });
  });

  it.each([
    ['no facets', undefined],
    ['facets not an object', 'x'],
    ['no processing_engine', { parent: {} }],
    ['blank name', engine({ name: '  ' })],
    ['name not a string', engine({ name: 7, version: 1 })],
  ])('is unknown with %s', (_label, facets) => {
    expect(deriveIntegration('urn:x', facets)).toEqual({ integration: UNKNOWN_INTEGRATION, integration_version: '' });
  });

  it('is unknown when the producer is not a string', () => {
    expect(deriveIntegration(undefined, undefined)).toEqual({ integration: UNKNOWN_INTEGRATION, integration_version: '' });
  });
});

describe('producerInfo', () => {
  it('says null where the URI says nothing', () => {
    expect(producerInfo('https://example.com/x')).toEqual({ name: null, version: null });
  });
});
