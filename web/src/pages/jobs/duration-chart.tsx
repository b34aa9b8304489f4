/**
 * @module pages/jobs/duration-chart
 * A job's run durations over time as SVG bars (no chart library: a few hundred bars at most),
 * oldest on the left; failed runs in red and marked with a ✕, so a failure stands out.
 */
import type { JobRun } from '../../api/types.ts';
import { formatDuration, formatTime } from '../../components/format.ts';

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { left: 8, right: 8, top: 16, bottom: 22 };

/** The chart of the runs that have a start (newest-first input, as the API lists them). */
export const DurationChart = ({ runs }: { runs: readonly JobRun[] }) => {
  const shown = [...runs].reverse();
  if (shown.length === 0) return null;
  const max = Math.max(1, ...shown.map((r) => r.durationMs ?? 0));
  const slot = (WIDTH - PAD.left - PAD.right) / shown.length;
  const barWidth = Math.max(2, Math.min(40, slot * 0.7));
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const first = shown[0] as JobRun;
  const last = shown[shown.length - 1] as JobRun;
  return (
    <figure className="duration-chart" data-testid="duration-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`Durations of ${shown.length} runs, oldest first`}>
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={HEIGHT - PAD.bottom} y2={HEIGHT - PAD.bottom} className="axis" />
        {shown.map((run, i) => {
          const height = run.durationMs === null ? 2 : Math.max(2, (plotHeight * run.durationMs) / max);
          const x = PAD.left + slot * i + (slot - barWidth) / 2;
          const y = HEIGHT - PAD.bottom - height;
          const failed = run.state === 'FAILED';
          return (
            <g key={run.id} data-run-id={run.id} data-state={run.state}>
              <rect x={x} y={y} width={barWidth} height={height} className={`bar${failed ? ' failed' : run.state === 'COMPLETED' ? '' : ' other'}`}>
                <title>{`${formatTime(run.startedAt ?? run.createdAt)} · ${run.state} · ${run.durationMs === null ? 'no duration' : formatDuration(run.durationMs)}`}</title>
              </rect>
              {failed ? (
                <text x={x + barWidth / 2} y={y - 3} textAnchor="middle" className="axis-label fail-mark">
                  ✕
                </text>
              ) : null}
            </g>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 6} className="axis-label">
          {formatTime(first.startedAt ?? first.createdAt)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 6} textAnchor="end" className="axis-label">
          {formatTime(last.startedAt ?? last.createdAt)}
        </text>
        <text x={PAD.left} y={11} className="axis-label">
          longest {formatDuration(max)}
        </text>
      </svg>
    </figure>
  );
};
