/**
 * Expected answers and facets shared by the lineage graph's unit and HTTP suites: the apples'
 * current graph as Marquez gives it, and the spec's `food_delivery` column lineage in both layouts.
 */

/**
 * The apples' graph once every event is in, one line per node (`id: inEdges | outEdges`, as
 * `shape` writes it): every job's current version is its latest run — gather_apples picked crab
 * apples (event 7), the filling got sugar (event 8) — and all five jobs share datasets.
 */
export const APPLES_CURRENT = [
  'dataset:backyard:crab.apples:  | job:grandmas.kitchen:gather_apples',
  'dataset:cupboard:apple.vinegar: job:grandmas.kitchen:prepare_vinegar | ',
  'dataset:cupboard:sugar:  | job:grandmas.kitchen:prepare_apple_cider,job:grandmas.kitchen:prepare_apple_filling',
  'dataset:grandmas.kitchen:apple.cider: job:grandmas.kitchen:prepare_apple_cider | job:grandmas.kitchen:prepare_vinegar',
  'dataset:grandmas.kitchen:apple.filling: job:grandmas.kitchen:prepare_apple_filling | job:grandmas.kitchen:prepare_apple_pie',
  'dataset:grandmas.kitchen:apple.pie: job:grandmas.kitchen:prepare_apple_pie | ',
  'dataset:grandmas.kitchen:apples: job:grandmas.kitchen:gather_apples | job:grandmas.kitchen:prepare_apple_cider,job:grandmas.kitchen:prepare_apple_filling',
  'dataset:grandmas.kitchen:cinnamon:  | job:grandmas.kitchen:prepare_apple_filling',
  'job:grandmas.kitchen:gather_apples: dataset:backyard:crab.apples | dataset:grandmas.kitchen:apples',
  'job:grandmas.kitchen:prepare_apple_cider: dataset:cupboard:sugar,dataset:grandmas.kitchen:apples | dataset:grandmas.kitchen:apple.cider',
  'job:grandmas.kitchen:prepare_apple_filling: dataset:cupboard:sugar,dataset:grandmas.kitchen:apples,dataset:grandmas.kitchen:cinnamon | dataset:grandmas.kitchen:apple.filling',
  'job:grandmas.kitchen:prepare_apple_pie: dataset:grandmas.kitchen:apple.filling | dataset:grandmas.kitchen:apple.pie',
  'job:grandmas.kitchen:prepare_vinegar: dataset:grandmas.kitchen:apple.cider | dataset:cupboard:apple.vinegar',
];

/** The facet fields every `columnLineage` facet carries. */
export const COLUMN_LINEAGE_FACET = { _producer: 'https://some.producer.com/version/1.0', _schemaURL: 'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json' };
export const FOOD_DELIVERY_SOURCE = { namespace: 'food_delivery', name: 'public.delivery_7_days' };
export const FOOD_DELIVERY_TARGET = { namespace: 'food_delivery', name: 'public.top_delivery_times' };

/** A transformation as the spec's example writes it. */
export const transformation = (type: string, subtype: string) => ({ type, subtype, description: '', masking: false });
const input = (field: string, ...transformations: ReturnType<typeof transformation>[]) => ({ ...FOOD_DELIVERY_SOURCE, field, transformations });

/** The spec's example (website/docs/spec/facets/dataset-facets/column_lineage_facet.md), dataset-wide layout. */
export const FOOD_DELIVERY = {
  ...COLUMN_LINEAGE_FACET,
  fields: {
    order_id: { inputFields: [input('order_id', transformation('DIRECT', 'IDENTITY'))] },
    order_placed_on: { inputFields: [input('order_placed_on', transformation('DIRECT', 'IDENTITY'))] },
    order_delivered_on: { inputFields: [input('order_delivered_on', transformation('DIRECT', 'IDENTITY'))] },
    order_delivery_time: { inputFields: [input('order_placed_on', transformation('DIRECT', 'TRANSFORMATION')), input('order_delivered_on', transformation('DIRECT', 'TRANSFORMATION'))] },
  },
  dataset: [input('order_placed_on', transformation('INDIRECT', 'SORT')), input('order_delivered_on', transformation('INDIRECT', 'SORT'))],
};

/** The same lineage in the legacy layout: the dataset-wide entries repeated in every column. */
export const FOOD_DELIVERY_LEGACY = {
  ...COLUMN_LINEAGE_FACET,
  fields: Object.fromEntries(Object.entries(FOOD_DELIVERY.fields).map(([name, column]) => [name, { inputFields: [...column.inputFields, ...FOOD_DELIVERY.dataset] }])),
  dataset: [],
};

/** The apples' graph as of 1 October 2020: after events 1, 2, 3 and 6, before 7 (15 October) and 5 (28 October). */
export const APPLES_AS_OF_OCTOBER_1 = [
  'dataset:cupboard:sugar:  | job:grandmas.kitchen:prepare_apple_cider',
  'dataset:grandmas.kitchen:apple.cider: job:grandmas.kitchen:prepare_apple_cider | ',
  'dataset:grandmas.kitchen:apple.filling: job:grandmas.kitchen:prepare_apple_filling | job:grandmas.kitchen:prepare_apple_pie',
  'dataset:grandmas.kitchen:apple.pie: job:grandmas.kitchen:prepare_apple_pie | ',
  'dataset:grandmas.kitchen:apples: job:grandmas.kitchen:gather_apples | job:grandmas.kitchen:prepare_apple_cider,job:grandmas.kitchen:prepare_apple_filling',
  'dataset:grandmas.kitchen:cinnamon:  | job:grandmas.kitchen:prepare_apple_filling',
  'dataset:laurents-orchard:red.delicious:  | job:grandmas.kitchen:gather_apples',
  'job:grandmas.kitchen:gather_apples: dataset:laurents-orchard:red.delicious | dataset:grandmas.kitchen:apples',
  'job:grandmas.kitchen:prepare_apple_cider: dataset:cupboard:sugar,dataset:grandmas.kitchen:apples | dataset:grandmas.kitchen:apple.cider',
  'job:grandmas.kitchen:prepare_apple_filling: dataset:grandmas.kitchen:apples,dataset:grandmas.kitchen:cinnamon | dataset:grandmas.kitchen:apple.filling',
  'job:grandmas.kitchen:prepare_apple_pie: dataset:grandmas.kitchen:apple.filling | dataset:grandmas.kitchen:apple.pie',
];
