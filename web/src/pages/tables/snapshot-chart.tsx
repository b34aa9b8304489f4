/**
 * @module pages/tables/snapshot-chart
 * A table's growth over its snapshots: total records and total size at each snapshot, as an SVG
 * step chart (no chart library: two series and a few dozen points).
 */
import type { TableDescription } from '../../api/types.ts';
import { formatBytes, formatCount, formatTime } from '../../components/format.ts';

const WIDTH = 640;
const HEIGHT = 160;
const PAD = { left: 8, right: 8, top: 12, bottom: 22 };

interface Point {
  readonly time: number;
  readonly records: number;
  readonly bytes: number;
}

const pointsOf = (snapshots: TableDescription['snapshots']): Point[] =>
  snapshots
    .map((s) => ({ time: new Date(s.timestamp).getTime(), records: Number(s.summary['total-records'] ?? NaN), bytes: Number(s.summary['total-files-size'] ?? NaN) }))
    .filter((p) => Number.isFinite(p.time))
    .sort((a, b) => a.time - b.time);

/** The y of a value on a scale up to `max`. */
const yOf = (v: number, max: number) => PAD.top + (HEIGHT - PAD.top - PAD.bottom) * (1 - (Number.isFinite(v) ? v : 0) / max);

/** A step line through the points, held to the right edge (each value holds until the next snapshot). */
const stepPath = (points: readonly Point[], value: (p: Point) => number, x: (t: number) => number): string => {
  const max = Math.max(1, ...points.map(value).filter(Number.isFinite));
  const [first, ...rest] = points;
  if (!first) return '';
  return [`M${x(first.time).toFixed(1)} ${yOf(value(first), max).toFixed(1)}`, ...rest.map((p) => `H${x(p.time).toFixed(1)} V${yOf(value(p), max).toFixed(1)}`), `H${WIDTH - PAD.right}`].join(' ');
};

/** The chart, or nothing for fewer than one snapshot. */
export const SnapshotChart = ({ snapshots }: { snapshots: TableDescription['snapshots'] }) => {
  const points = pointsOf(snapshots);
  if (points.length === 0) return null;
  const first = points[0] as Point;
  const last = points[points.length - 1] as Point;
  const span = Math.max(1, last.time - first.time);
  const x = (t: number) => (points.length === 1 ? PAD.left : PAD.left + ((WIDTH - PAD.left - PAD.right) * (t - first.time)) / span);
  const maxRecords = Math.max(1, ...points.map((p) => p.records).filter(Number.isFinite));
  return (
    <figure className="snapshot-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Records and size over ${points.length} snapshots`}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} className="axis" />
        <path d={stepPath(points, (p) => p.bytes, x)} className="series-bytes" />
        <path d={stepPath(points, (p) => p.records, x)} className="series-records" />
        {points.map((p) => (
          <circle key={p.time} cx={x(p.time)} cy={yOf(p.records, maxRecords)} r={3.5} className="snapshot-dot">
            <title>{`${formatTime(new Date(p.time).toISOString())}: ${formatCount(p.records)} records, ${formatBytes(p.bytes)}`}</title>
          </circle>
        ))}
        <text x={PAD.left} y={HEIGHT - 6} className="axis-label">
          {formatTime(new Date(first.time).toISOString())}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="axis-label">
          {formatTime(new Date(last.time).toISOString())}
        </text>
      </svg>
      <figcaption>
        <span className="legend-records">records</span> <span className="legend-bytes">size</span> at each snapshot (latest: {formatCount(last.records)} records,{' '}
        {formatBytes(last.bytes)})
      </figcaption>
    </figure>
  );
};
