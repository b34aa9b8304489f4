/**
 * @module search-fold
 * The one folding rule for case-insensitive filters, applied both to stored values and to the
 * `namespace`, `job` and `integrations` query parameters so that the two always agree.
 */

/**
 * Folds text for case-insensitive matching: Unicode NFC (so a composed and a decomposed `é` match),
 * then locale-independent lower case.
 *
 * @example foldForSearch('Ünïcode_JOB') // 'ünïcode_job'
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFC').toLowerCase();
}
