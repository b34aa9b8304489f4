// The lineage schemas of the OpenAPI document agree with what the service accepts.
import { describe, expect, it } from 'vitest';
import { validateEvent } from '#domain/lineage/validate';
import { EventsQuery, LineageEvent } from '#shared/schemas/lineage';
import { loadExamples } from '../domain/lineage/examples.ts';

describe('LineageEvent schema', () => {
  it.each(loadExamples().filter((e) => validateEvent(JSON.parse(e.text)).ok).map((e) => [e.name, e.text] as const))('Should describe the accepted example %s as valid', (_name, text) => {
    // Act
    const parsed = LineageEvent.safeParse(JSON.parse(text));

    // Assess
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it.each([['urn:uuid:3f2504e0-4f89-41d3-9a0c-0305e82c3301'], ['3F2504E0-4F89-41D3-9A0C-0305E82C3301'], ['00000000-0000-0000-0000-000000000000'], ['3f2504e0-4f89-f1d3-0a0c-0305e82c3301']])(
    'Should accept the run id %s, as the OpenLineage schema does',
    (runId) => {
      // Prepare
      const event = { eventTime: '2024-01-01T00:00:00Z', producer: 'urn:p', run: { runId }, job: { namespace: 'n', name: 'j' } };

      // Act & Assess
      expect(validateEvent(event).ok).toBe(true);
      expect(LineageEvent.safeParse(event).success).toBe(true);
      expect(EventsQuery.safeParse({ start: '0', end: '1', run: runId }).success).toBe(true);
    },
  );

  it('Should refuse a run id that is not a UUID, as the service does', () => {
    // Prepare
    const event = { eventTime: '2024-01-01T00:00:00Z', producer: 'urn:p', run: { runId: 'run-1' }, job: { namespace: 'n', name: 'j' } };

    // Act & Assess
    expect(validateEvent(event).ok).toBe(false);
    expect(LineageEvent.safeParse(event).success).toBe(false);
  });
});
