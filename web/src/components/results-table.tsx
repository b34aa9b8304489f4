/**
 * @module components/results-table
 * Query results: one column per result column, its engine type under its name, NULLs marked.
 */
import type { TabularResult } from '../api/types.ts';
import { formatCell } from './format.ts';

/** The rows of a tabular result. */
export const ResultsTable = ({ result, caption }: { result: TabularResult; caption?: string }) => (
  <div className="table-scroll">
    <table className="data-table results-table" data-testid="results-table">
      {caption ? <caption>{caption}</caption> : null}
      <thead>
        <tr>
          {result.columns.map((column, i) => (
            <th key={`${column}-${i}`} scope="col">
              <span className="column-name">{column}</span>
              <span className="column-type">{result.column_types[i] ?? ''}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {result.rows.map((row, r) => (
          <tr key={r}>
            {row.map((value, c) => (
              <td key={c} className={value === null || value === undefined ? 'null-cell' : typeof value === 'number' ? 'number-cell' : undefined}>
                {formatCell(value)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
);
