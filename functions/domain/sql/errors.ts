/**
 * @module sql/errors
 * The error of the SQL firewall. It is a {@link ValidationError}, so the shared error mapping answers
 * 400; its message always reads `SQL not allowed: <construct>` and names what was refused.
 */
import { ValidationError } from '#domain/errors';

/** Prefix of every firewall message; callers and tests may rely on it. */
export const FORBIDDEN_PREFIX = 'SQL not allowed: ';

/** The statement uses a construct the firewall refuses, or one it cannot read (fail-closed). */
export class ForbiddenSqlError extends ValidationError {
  // Set explicitly as well as by the base (`new.target.name`): bundlers may rename classes.
  override readonly name = 'ForbiddenSqlError';
  /** The refused construct alone (`table function read_csv`, `SET`), for logs and metrics. */
  readonly construct: string;

  /**
   * @param construct - what was refused, as the caller should read it (`SET`, `table function read_csv`)
   * @param details - optional extra detail (for example the parser's own message)
   */
  constructor(construct: string, details?: string) {
    super(`${FORBIDDEN_PREFIX}${construct}`, details === undefined ? undefined : { details });
    this.construct = construct;
  }
}
