/**
 * @module target-error
 * The error for a profile's stores that cannot be reached or are not what they should be (exit
 * status 1). Kept apart from target.ts so the CLI can recognise it without loading the AWS SDK.
 */

/** The target could not be reached or is not a lakeline deployment. */
export class TargetError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TargetError';
  }
}
