/**
 * Which infrastructure errors are transient (adapters/transient-errors.ts): the adapters retry them
 * and raise them at their ports as the domain's TransientError, which the HTTP layer answers with
 * 503; everything else is not retried and passes the ports as it is.
 */
import { describe, expect, it } from 'vitest';
import { guardPorts, isTransientInfrastructureError } from '#adapters/transient-errors';
import { NotFoundError, TransientError } from '#domain/errors';

describe('isTransientInfrastructureError', () => {
  it.each([
    ['throttling', { name: 'ThrottlingException' }],
    ['provisioned throughput', { name: 'ProvisionedThroughputExceededException' }],
    ['request limit', { name: 'RequestLimitExceeded' }],
    ['a retryable SDK error', { name: 'Whatever', $retryable: {} }],
    ['a 5xx from the service', { name: 'InternalFailure', $metadata: { httpStatusCode: 500 } }],
    ['connection refused', { code: 'ECONNREFUSED' }],
    ['connection reset', { code: 'ECONNRESET' }],
    ['timeout', { name: 'TimeoutError' }],
  ])('Should treat %s as transient', (_case, err) => {
    // Act / Assess
    expect(isTransientInfrastructureError(err)).toBe(true);
  });

  it.each([
    ['a programming error', new TypeError('x is undefined')],
    ['a 4xx from the service', { name: 'ValidationException', $metadata: { httpStatusCode: 400 } }],
    ['a conditional check failure', { name: 'ConditionalCheckFailedException', $metadata: { httpStatusCode: 400 } }],
    ['a string', 'boom'],
    ['null', null],
  ])('Should not treat %s as transient', (_case, err) => {
    // Act / Assess
    expect(isTransientInfrastructureError(err)).toBe(false);
  });
});

describe('guardPorts', () => {
  const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });

  /** A store as an adapter writes one: a class with private state, async and sync methods. */
  class Store {
    readonly #prefix = 'row';
    async get(id: string): Promise<string> {
      if (id === 'down') throw refused();
      if (id === 'missing') throw new NotFoundError('no such row');
      if (id === 'bug') throw new TypeError('x is undefined');
      return `${this.#prefix}:${id}`;
    }
    sizeOf(id: string): number {
      if (id === 'down') throw refused();
      return id.length;
    }
  }
  const group = { store: new Store(), secret: async (): Promise<string> => Promise.reject(refused()), enabled: true };

  it('Should raise a transient failure of a port as a TransientError carrying the SDK error', async () => {
    // Prepare
    const ports = guardPorts(group);
    // Act
    const error = await ports.store.get('down').catch((err: unknown) => err);
    // Assess
    expect(error).toBeInstanceOf(TransientError);
    expect(error).toMatchObject({ message: 'connect ECONNREFUSED 127.0.0.1:8000', cause: { code: 'ECONNREFUSED' } });
  });

  it("Should raise a transient failure of a group's own method and of a synchronous method too", async () => {
    // Prepare
    const ports = guardPorts(group);
    // Act / Assess
    await expect(ports.secret()).rejects.toBeInstanceOf(TransientError);
    expect(() => ports.store.sizeOf('down')).toThrow(TransientError);
  });

  it('Should pass answers, domain errors and other failures through as they are', async () => {
    // Prepare
    const ports = guardPorts(group);
    // Act / Assess
    await expect(ports.store.get('a')).resolves.toBe('row:a');
    expect(ports.store.sizeOf('abc')).toBe(3);
    expect(ports.enabled).toBe(true);
    await expect(ports.store.get('missing')).rejects.toBeInstanceOf(NotFoundError);
    await expect(ports.store.get('bug')).rejects.toBeInstanceOf(TypeError);
  });

  it('Should hand out the same port and the same method on every read', () => {
    // Prepare
    const ports = guardPorts(group);
    // Act / Assess
    expect(guardPorts(group)).toBe(ports);
    expect(ports.store).toBe(ports.store);
    expect(ports.store.get).toBe(ports.store.get);
  });
});
