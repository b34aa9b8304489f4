/**
 * @module pages/webhooks/webhooks-page
 * Alert destinations (`/webhooks`): the org's webhooks and Slack destinations, a form to add one
 * (its signing secret shown once, right after), a test delivery button, and a destination's
 * delivery log (`/webhooks?id=`), from `/api/v1/webhooks`.
 */
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Webhook } from '../../api/types.ts';
import { useApi } from '../../auth/auth-context.tsx';
import { mayCall } from '../../auth/capabilities.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorPanel } from '../../components/error-panel.tsx';
import { formatTime } from '../../components/format.ts';
import { KeyRequired } from '../../components/key-required.tsx';
import { Progress } from '../../components/progress.tsx';
import { useAsync } from '../../components/use-async.ts';

/** The form that adds a destination; the created one's secret is shown by the caller. */
const CreateForm = ({ onCreated }: { onCreated: (created: Webhook & { secret: string }) => void }) => {
  const api = useApi();
  const [url, setUrl] = useState('');
  const [kind, setKind] = useState<'webhook' | 'slack'>('webhook');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    api
      .createWebhook({ url, kind, ...(description ? { description } : {}) })
      .then((created) => {
        setUrl('');
        setDescription('');
        onCreated(created);
      }, setError)
      .finally(() => setBusy(false));
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Add a webhook">
      <div className="filter-row">
        <label>
          URL
          <input name="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.example.com/lakeline" size={48} required />
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind(e.target.value as 'webhook' | 'slack')}>
            <option value="webhook">webhook</option>
            <option value="slack">slack</option>
          </select>
        </label>
        <label>
          Description
          <input name="description" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="optional" />
        </label>
        <button type="submit" disabled={busy}>
          Add webhook
        </button>
      </div>
      {error ? <ErrorPanel error={error} title="The webhook was not added" /> : null}
    </form>
  );
};

const WebhookList = () => {
  const api = useApi();
  const [created, setCreated] = useState<(Webhook & { secret: string }) | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [actionError, setActionError] = useState<unknown>(undefined);
  const webhooks = useAsync((signal) => api.webhooks({ signal }), `webhooks-${generation}`);
  const test = (id: string) => {
    setActionError(undefined);
    api.testWebhook(id).then((delivery) => setNotice(`Test delivery ${delivery.id} queued for ${id}.`), setActionError);
  };
  const remove = (id: string) => {
    setActionError(undefined);
    api.deleteWebhook(id).then(() => setGeneration((g) => g + 1), setActionError);
  };
  return (
    <>
      <CreateForm
        onCreated={(made) => {
          setCreated(made);
          setGeneration((g) => g + 1);
        }}
      />
      {created ? (
        <section className="secret-once" data-testid="webhook-secret" role="status">
          <p>
            <strong>{created.id}</strong> was added. Its signing secret is shown this once — keep it where your receiver verifies signatures (Standard Webhooks):
          </p>
          <pre className="mono">{created.secret}</pre>
          <button type="button" onClick={() => setCreated(undefined)}>
            I have stored it
          </button>
        </section>
      ) : null}
      {notice ? <p className="results-meta" data-testid="webhook-notice">{notice}</p> : null}
      {actionError ? <ErrorPanel error={actionError} /> : null}
      {webhooks.loading && !webhooks.data ? <Progress label="Reading the webhooks…" since={webhooks.startedAt} /> : null}
      {webhooks.error ? <ErrorPanel error={webhooks.error} /> : null}
      {webhooks.data && webhooks.data.webhooks.length === 0 ? (
        <EmptyState title="No webhooks yet">
          <p>Add an HTTPS endpoint or a Slack incoming webhook above: every alert of this organization is delivered to it, signed, with what it breaks downstream.</p>
        </EmptyState>
      ) : null}
      {webhooks.data && webhooks.data.webhooks.length > 0 ? (
        <table className="data-table" data-testid="webhooks-table">
          <thead>
            <tr>
              <th>Webhook</th>
              <th>Kind</th>
              <th>URL</th>
              <th>Description</th>
              <th>Created</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {webhooks.data.webhooks.map((hook) => (
              <tr key={hook.id} data-webhook-id={hook.id}>
                <td className="mono">
                  <Link to={`/webhooks?id=${encodeURIComponent(hook.id)}`}>{hook.id}</Link>
                </td>
                <td>{hook.kind}</td>
                <td className="mono">{hook.url}</td>
                <td>{hook.description ?? ''}</td>
                <td>{formatTime(hook.createdAt)}</td>
                <td>
                  <button type="button" onClick={() => test(hook.id)}>
                    Send test
                  </button>{' '}
                  <button type="button" onClick={() => remove(hook.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
};

const DeliveryLog = ({ id }: { id: string }) => {
  const api = useApi();
  const [generation, setGeneration] = useState(0);
  const deliveries = useAsync((signal) => api.webhookDeliveries(id, { signal }), `${id}-${generation}`);
  return (
    <>
      <p>
        <Link to="/webhooks">All webhooks</Link>{' '}
        <button type="button" onClick={() => setGeneration((g) => g + 1)}>
          Refresh
        </button>
      </p>
      {deliveries.loading && !deliveries.data ? <Progress label="Reading the delivery log…" since={deliveries.startedAt} /> : null}
      {deliveries.error ? <ErrorPanel error={deliveries.error} /> : null}
      {deliveries.data && deliveries.data.deliveries.length === 0 ? <EmptyState title="Nothing delivered yet" /> : null}
      {deliveries.data && deliveries.data.deliveries.length > 0 ? (
        <table className="data-table" data-testid="deliveries-table">
          <thead>
            <tr>
              <th>Delivery</th>
              <th>What</th>
              <th>Status</th>
              <th className="number-cell">Attempts</th>
              <th>Last error</th>
              <th>Created</th>
              <th>Last attempt</th>
              <th>Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.deliveries.map((d) => (
              <tr key={d.id} data-delivery-id={d.id} className={d.status === 'FAILED' ? 'run-failed' : undefined}>
                <td className="mono">{d.id}</td>
                <td>{d.test ? 'test' : `${d.alertKind ?? ''} ${d.transition ?? ''} #${d.sequence ?? ''}`}</td>
                <td>{d.status}</td>
                <td className="number-cell">{d.attempts}</td>
                <td>{d.lastError ?? ''}</td>
                <td>{formatTime(d.createdAt)}</td>
                <td>{formatTime(d.lastAttemptAt)}</td>
                <td>{formatTime(d.nextAttemptAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
};

/** The webhooks page. */
export const WebhooksPage = () => {
  const api = useApi();
  const [params] = useSearchParams();
  const id = params.get('id');
  if (!mayCall(api.credentials, 'GET /api/v1/webhooks')) return <KeyRequired what="Webhooks" routeKey="GET /api/v1/webhooks" />;
  return (
    <section className="page">
      <h1>{id ? `Deliveries of ${id}` : 'Webhooks'}</h1>
      {id ? <DeliveryLog id={id} /> : <WebhookList />}
    </section>
  );
};
