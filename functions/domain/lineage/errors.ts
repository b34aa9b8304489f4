/**
 * @module errors
 * The domain error for a lineage event the service refuses. It is a {@link ValidationError}, so the
 * shared error mapping answers 400; its message always starts with the offending field path
 * (`run.runId: must be a UUID`).
 */
import { ValidationError } from '#domain/errors';

/** A lineage event (or one of its fields) is not acceptable. */
export class InvalidEventError extends ValidationError {
  // Set explicitly as well as by the base (`new.target.name`): bundlers may rename classes.
  override readonly name = 'InvalidEventError';
  /** Dotted path of the first offending field (`event` for the document itself). */
  readonly field: string;

  /**
   * @param field - dotted path of the offending field
   * @param message - the full message, `field: reason` (built by the caller so lists of errors fit)
   */
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}
