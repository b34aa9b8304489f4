/**
 * @module pages/query/engine-decision-view
 * The router's decision (`engine_decision`): engine, execution mode, size band, estimated input,
 * vCPUs and sandbox, input tables, and the reasons in the router's own words.
 */
import type { EngineDecision } from '../../api/types.ts';
import { formatBytes } from '../../components/format.ts';

/** The decision as a fact list with its reasons. */
export const EngineDecisionView = ({ decision, title = 'Engine decision' }: { decision: EngineDecision; title?: string }) => (
  <section className="decision" data-testid="engine-decision">
    <h3>{title}</h3>
    <dl className="facts facts-grid">
      <dt>Engine</dt>
      <dd data-testid="decision-engine">{decision.engine}</dd>
      <dt>Execution</dt>
      <dd>{decision.execution_mode}</dd>
      <dt>Size band</dt>
      <dd>{decision.size_band}</dd>
      <dt>Estimated input</dt>
      <dd title={`${decision.estimated_input_bytes} bytes`}>{formatBytes(decision.estimated_input_bytes)}</dd>
      <dt>vCPUs</dt>
      <dd>{decision.vcpus}</dd>
      <dt>Sandbox</dt>
      <dd>
        {decision.sandbox.vcpus} vCPU, {decision.sandbox.memory_gb} GB
      </dd>
      <dt>Input tables</dt>
      <dd className="mono">{decision.input_tables.length ? decision.input_tables.join(', ') : 'none'}</dd>
    </dl>
    <h4>Reasons</h4>
    <ul className="reasons" data-testid="decision-reasons">
      {decision.reasons.map((reason, i) => (
        <li key={i}>{reason}</li>
      ))}
    </ul>
  </section>
);
