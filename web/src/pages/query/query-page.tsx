/**
 * @module pages/query/query-page
 * The query console (`POST /api/v1/query`): SQL or a polars script in an editor, the engine left
 * to the router or pinned, `explain` for the routing decision, results with their column types,
 * a SUBMITTED run followed to its end, and a write into a lake table.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { QueryRequest, QueryResponse, RoutedEngine } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatCount } from '../../components/format.ts';
import { Progress } from '../../components/progress.tsx';
import { ResultsTable } from '../../components/results-table.tsx';
import { CodeEditor } from './code-editor.tsx';
import { EngineDecisionView } from './engine-decision-view.tsx';
import { RunFollower } from './run-follower.tsx';

/** What the editor holds. */
type Mode = 'sql' | 'script';

const ENGINES: readonly { id: RoutedEngine; label: string }[] = [
  { id: 'auto', label: 'auto (router decides)' },
  { id: 'duckdb', label: 'duckdb' },
  { id: 'polars', label: 'polars' },
  { id: 'bloom', label: 'bloom (distributed SQL)' },
  { id: 'spark', label: 'spark' },
];

const DEFAULT_SQL = `SELECT r_name AS region, count(*) AS nations
FROM tpch.nation JOIN tpch.region ON n_regionkey = r_regionkey
GROUP BY r_name
ORDER BY r_name`;

/** The tables the default script reads (the routed endpoint registers a script's tables by alias). */
const DEFAULT_SCRIPT_TABLES = 'nation=tpch.nation';

const DEFAULT_SCRIPT = `# polars: pl and scan(alias) are in scope (aliases from Tables); assign a lazy frame to \`result\`
result = (
    scan("nation")
    .group_by("n_regionkey")
    .agg(pl.len().alias("nations"))
    .sort("n_regionkey")
)`;

/** One request's outcome, shown under the form. */
type Outcome =
  | { readonly kind: 'running'; readonly explain: boolean; readonly since: number }
  | { readonly kind: 'answer'; readonly response: QueryResponse; readonly since: number }
  | { readonly kind: 'error'; readonly error: unknown };

/** The query console page. */
export const QueryPage = () => {
  const api = useApi();
  const [search] = useSearchParams();
  const [mode, setMode] = useState<Mode>(search.get('script') !== null ? 'script' : 'sql');
  const [sqlText, setSqlText] = useState(search.get('sql') ?? DEFAULT_SQL);
  const [scriptText, setScriptText] = useState(search.get('script') ?? DEFAULT_SCRIPT);
  const [engine, setEngine] = useState<RoutedEngine>('auto');
  const [tables, setTables] = useState(search.get('tables') ?? DEFAULT_SCRIPT_TABLES);
  const [destination, setDestination] = useState('');
  const [writeMode, setWriteMode] = useState<'overwrite' | 'append'>('overwrite');
  const [outcome, setOutcome] = useState<Outcome>();

  const request = (explain: boolean): QueryRequest => {
    const body: QueryRequest = mode === 'sql' ? { query: sqlText } : { script: scriptText };
    if (mode === 'script') {
      const list = tables.split(',').map((t) => t.trim()).filter(Boolean);
      if (list.length) body.tables = list;
    }
    if (engine !== 'auto') body.engine = engine;
    if (destination.trim()) {
      body.destination = destination.trim();
      body.write_mode = writeMode;
    }
    if (explain) body.explain = true;
    return body;
  };

  const send = async (explain: boolean) => {
    if (outcome?.kind === 'running') return;
    const since = Date.now();
    setOutcome({ kind: 'running', explain, since });
    try {
      setOutcome({ kind: 'answer', response: await api.query(request(explain)), since });
    } catch (error) {
      setOutcome({ kind: 'error', error });
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(false);
  };

  return (
    <div className="query-page">
      <div className="page-head">
        <h1>Query</h1>
        <div className="segmented" role="radiogroup" aria-label="Language">
          <button type="button" role="radio" aria-checked={mode === 'sql'} className={mode === 'sql' ? 'active' : ''} onClick={() => setMode('sql')}>
            SQL
          </button>
          <button type="button" role="radio" aria-checked={mode === 'script'} className={mode === 'script' ? 'active' : ''} onClick={() => setMode('script')}>
            polars script
          </button>
        </div>
      </div>
      <form className="query-form" onSubmit={submit} aria-label="Query">
        <CodeEditor
          key={mode}
          language={mode === 'sql' ? 'sql' : 'python'}
          value={mode === 'sql' ? sqlText : scriptText}
          onChange={mode === 'sql' ? setSqlText : setScriptText}
          onRun={() => void send(false)}
          label={mode === 'sql' ? 'SQL query' : 'polars script'}
        />
        <div className="query-options">
          <label>
            Engine
            <select name="engine" value={engine} onChange={(e) => setEngine(e.target.value as RoutedEngine)}>
              {ENGINES.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.label}
                </option>
              ))}
            </select>
          </label>
          {mode === 'script' ? (
            <label title="alias=namespace.table, comma-separated; the script reads each as scan(&quot;alias&quot;)">
              Tables
              <input name="tables" value={tables} onChange={(e) => setTables(e.target.value)} placeholder="n=tpch.nation, r=tpch.region" size={32} />
            </label>
          ) : null}
          <label>
            Destination (optional)
            <input name="destination" value={destination} onChange={(e) => setDestination(e.target.value)} placeholder="namespace.table" />
          </label>
          {destination.trim() ? (
            <label>
              Write mode
              <select name="write_mode" value={writeMode} onChange={(e) => setWriteMode(e.target.value as 'overwrite' | 'append')}>
                <option value="overwrite">overwrite</option>
                <option value="append">append</option>
              </select>
            </label>
          ) : null}
          <div className="query-actions">
            <button type="submit" className="primary" disabled={outcome?.kind === 'running'} title="Ctrl/Cmd-Enter">
              Run
            </button>
            <button type="button" disabled={outcome?.kind === 'running'} onClick={() => void send(true)}>
              Explain
            </button>
          </div>
        </div>
      </form>
      <section className="query-outcome" aria-label="Outcome">
        {outcome?.kind === 'running' ? <Progress label={outcome.explain ? 'Asking the router…' : 'Running the query…'} since={outcome.since} /> : null}
        {outcome?.kind === 'error' ? <ErrorPanel error={outcome.error} title="The query failed" /> : null}
        {outcome?.kind === 'answer' ? <Answer response={outcome.response} since={outcome.since} /> : null}
      </section>
    </div>
  );
};

/** What the API answered: a decision only (explain), rows, or a submitted run to follow. */
const Answer = ({ response, since }: { response: QueryResponse; since: number }) => {
  if (response.explain) return <EngineDecisionView decision={response.engine_decision} title="Engine decision (explain: nothing was run)" />;
  return (
    <>
      <div className="results-meta" data-testid="query-summary">
        <span>
          {response.state === 'SUBMITTED' ? 'Submitted' : 'Done'} on <strong>{response.engine_decision.engine}</strong> ({response.engine_decision.execution_mode})
        </span>
        {response.row_count !== undefined ? <span>{formatCount(response.row_count)} rows</span> : null}
        {response.execution_time ? <span>{response.execution_time}</span> : null}
        {response.job ? (
          <Link to={`/events?namespace=${encodeURIComponent(response.job.namespace)}&job=${encodeURIComponent(response.job.name)}`}>lineage events of this job</Link>
        ) : null}
      </div>
      {response.state === 'COMPLETE' && response.output_table ? (
        <p className="success" data-testid="query-written">
          Wrote to <code>{response.output_table}</code>.
        </p>
      ) : null}
      {response.results ? <ResultsTable result={response.results} /> : null}
      {response.state === 'SUBMITTED' && response.run_id ? <RunFollower runId={response.run_id} submittedAt={since} /> : null}
      <details className="decision-details">
        <summary>Why {response.engine_decision.engine}?</summary>
        <EngineDecisionView decision={response.engine_decision} />
      </details>
    </>
  );
};
