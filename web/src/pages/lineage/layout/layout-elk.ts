/**
 * @module pages/lineage/layout/layout-elk
 * TRIAL (issue 15): elkjs's bundled build in the page (phase 2's layout).
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import { elkGraph, elkPositions } from './elk-graph.ts';
import type { LayoutEngine } from './engine.ts';

const elk = new ELK();

export const layoutWithElk: LayoutEngine = async (model, size) => elkPositions(await elk.layout(elkGraph(model, size)));
