/**
 * @module api/errors
 * An API error as the API words it. Every error body of the contract carries its words in `error`
 * (`{error}`, `{success: false, error}`, `{error, details}`); the gateway's own answers carry them
 * in `message`; a bare `{status: 500}` has none, and the console then says only that.
 */

/** An answer of the API that was not a success. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status (0 when the request never got an answer). */
    readonly status: number,
    /** The API's own words, verbatim (`Unauthorized`, `query: is required`, …), or empty. */
    readonly apiMessage: string,
    /** More detail the API gave (`details` of the polars endpoint), verbatim. */
    readonly details: string | undefined,
    /** The method and path that failed, for the reader. */
    readonly request: string,
  ) {
    super(apiMessage || `HTTP ${status}`);
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

/** Builds the error of a failed answer from its body (JSON or text). */
export const apiErrorOf = (status: number, body: unknown, request: string): ApiError => {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const words = text(record.error) ?? text(record.message) ?? '';
    return new ApiError(status, words, text(record.details), request);
  }
  return new ApiError(status, text(body)?.slice(0, 2000) ?? '', undefined, request);
};

/** The words to show for any error thrown by the client (network failures included). */
export const describeError = (error: unknown): { status: number; words: string; details?: string; request?: string } => {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      words: error.apiMessage || (error.status >= 500 ? 'The API answered with no details (its log has them).' : `HTTP ${error.status}`),
      ...(error.details ? { details: error.details } : {}),
      request: error.request,
    };
  }
  return { status: 0, words: error instanceof Error ? error.message : String(error) };
};
