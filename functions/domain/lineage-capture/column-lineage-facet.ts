/**
 * @module lineage-capture/column-lineage-facet
 * The shape of OpenLineage's `columnLineage` facet, apart from how `column-lineage.ts` derives it,
 * so a run's events (`run-events.ts`) can carry one without depending on the derivation.
 */

/** One transformation of an input field. */
export interface Transformation {
  readonly type: 'DIRECT' | 'INDIRECT';
  readonly subtype: string;
  readonly description: string;
  readonly masking: boolean;
}

/** An input field of the facet. */
export interface InputField {
  readonly namespace: string;
  readonly name: string;
  readonly field: string;
  readonly transformations: readonly Transformation[];
}

/** The `columnLineage` facet. */
export interface ColumnLineageFacet {
  readonly _producer: string;
  readonly _schemaURL: string;
  readonly fields: Readonly<Record<string, { readonly inputFields: readonly InputField[] }>>;
  readonly dataset: readonly InputField[];
}
