/**
 * @module components/producer-setup
 * How to point an OpenLineage producer at this lakeline, with this console's base URL filled in
 * (the console is served by lakeline itself, so its origin is the API's). The key is left as a
 * placeholder: the console never prints a secret.
 */

/** The base URL of the API this console talks to. */
export const apiBaseUrl = (): string => window.location.origin;

/** Set-up snippets for the OpenLineage client, Spark, Airflow and curl. */
export const ProducerSetup = () => {
  const base = apiBaseUrl();
  return (
    <div className="producer-setup" data-testid="producer-setup">
      <p>
        Send OpenLineage run events to <code>{base}/api/v1/lineage</code> with your API key as a bearer token. Any OpenLineage producer
        works unchanged:
      </p>
      <h3>OpenLineage clients (Python, Java) and dbt</h3>
      <pre>{`OPENLINEAGE_URL=${base}
OPENLINEAGE_ENDPOINT=api/v1/lineage
OPENLINEAGE_API_KEY=<your API key>`}</pre>
      <h3>Spark</h3>
      <pre>{`--conf spark.extraListeners=io.openlineage.spark.agent.OpenLineageSparkListener
--conf spark.openlineage.transport.type=http
--conf spark.openlineage.transport.url=${base}
--conf spark.openlineage.transport.endpoint=/api/v1/lineage
--conf spark.openlineage.transport.auth.type=api_key
--conf spark.openlineage.transport.auth.apiKey=<your API key>`}</pre>
      <h3>Airflow</h3>
      <pre>{`AIRFLOW__OPENLINEAGE__TRANSPORT='{"type": "http", "url": "${base}", "endpoint": "api/v1/lineage", "auth": {"type": "api_key", "apiKey": "<your API key>"}}'`}</pre>
      <h3>curl</h3>
      <pre>{`curl -H "Authorization: Bearer <your API key>" -H 'Content-Type: application/json' \\
  ${base}/api/v1/lineage -d @event.json`}</pre>
    </div>
  );
};
