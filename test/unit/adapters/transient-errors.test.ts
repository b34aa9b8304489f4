/**
 * Which infrastructure errors are transient (adapters/transient-errors.ts): the adapters retry them
 * and the HTTP layer answers them with 503; everything else is not retried.
 */
import { describe, expect, it } from 'vitest';
import { isTransientInfrastructureError } from '#adapters/transient-errors';

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
