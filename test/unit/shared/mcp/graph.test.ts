import { describe, expect, it } from 'vitest';
import { compactGraph, limitGraph, pathsBetween, type CompactGraph, type MarquezNode } from '#shared/mcp/graph';

const graphOf = (edges: [string, string][]): CompactGraph => ({
  nodes: [...new Set(edges.flat())].map((id) => ({ id, type: id.startsWith('job:') ? 'JOB' : 'DATASET', namespace: 'n', name: id })),
  edges: edges.map(([from, to]) => ({ from, to })),
});

describe('mcp graph', () => {
  it('Should compact Marquez nodes to ids, names, a job\'s latest state and each edge once', () => {
    const nodes: MarquezNode[] = [
      { id: 'dataset:n:a', type: 'DATASET', data: { namespace: 'n', name: 'a' }, inEdges: [], outEdges: [{ origin: 'dataset:n:a', destination: 'job:n:j' }] },
      { id: 'job:n:j', type: 'JOB', data: { namespace: 'n', name: 'j', latestRun: { state: 'FAILED' } }, inEdges: [{ origin: 'dataset:n:a', destination: 'job:n:j' }], outEdges: [] },
    ];
    expect(compactGraph(nodes)).toEqual({
      nodes: [
        { id: 'dataset:n:a', type: 'DATASET', namespace: 'n', name: 'a' },
        { id: 'job:n:j', type: 'JOB', namespace: 'n', name: 'j', latestRunState: 'FAILED' },
      ],
      edges: [{ from: 'dataset:n:a', to: 'job:n:j' }],
    });
  });

  it('Should find the shortest paths first, and stop at maxPaths saying more exist', () => {
    // a → j1 → b and a → j2 → c → j3 → b: two paths, the short one first.
    const g = graphOf([['a', 'j1'], ['j1', 'b'], ['a', 'j2'], ['j2', 'c'], ['c', 'j3'], ['j3', 'b']]);
    expect(pathsBetween(g, 'a', 'b', { maxPaths: 5, maxHops: 10 })).toEqual({ paths: [['a', 'j1', 'b'], ['a', 'j2', 'c', 'j3', 'b']], truncated: false });
    expect(pathsBetween(g, 'a', 'b', { maxPaths: 1, maxHops: 10 })).toEqual({ paths: [['a', 'j1', 'b']], truncated: true });
    expect(pathsBetween(g, 'a', 'b', { maxPaths: 5, maxHops: 2 }).paths).toEqual([['a', 'j1', 'b']]);
  });

  it('Should not loop on cycles and find nothing against the flow', () => {
    const g = graphOf([['a', 'j'], ['j', 'a'], ['j', 'b']]);
    expect(pathsBetween(g, 'a', 'b', { maxPaths: 5, maxHops: 10 }).paths).toEqual([['a', 'j', 'b']]);
    expect(pathsBetween(g, 'b', 'a', { maxPaths: 5, maxHops: 10 })).toEqual({ paths: [], truncated: false });
  });

  it('Should stop at the expansion bound and say so', () => {
    const edges: [string, string][] = [];
    for (let i = 0; i < 30; i++) edges.push(['a', `j${i}`], [`j${i}`, 'm']);
    edges.push(['m', 'z']);
    expect(pathsBetween(graphOf(edges), 'a', 'nowhere', { maxPaths: 5, maxHops: 10, maxExpansions: 20 })).toEqual({ paths: [], truncated: true });
  });
});

describe('mcp graph bounds', () => {
  it('Should keep the nodes nearest the focus and the edges between them, saying how many there were', () => {
    // A chain a - b - c - d - e; focus c; 3 nodes: c, then b and d.
    const g = graphOf([['a', 'b'], ['b', 'c'], ['c', 'd'], ['d', 'e']]);
    const limited = limitGraph(g, 'c', 3);
    expect(limited.nodes.map((n) => n.id).sort()).toEqual(['b', 'c', 'd']);
    expect(limited.edges).toEqual([{ from: 'b', to: 'c' }, { from: 'c', to: 'd' }]);
    expect(limited).toMatchObject({ truncated: true, totalNodes: 5 });
    expect(limitGraph(g, 'c', 5)).toMatchObject({ truncated: false, totalNodes: 5 });
  });
});
