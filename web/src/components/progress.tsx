/**
 * @module components/progress
 * Long work in progress: an animated bar, what is happening, and for how long it has run.
 */
import { useEffect, useState } from 'react';
import { formatDuration } from './format.ts';

/** An indeterminate progress bar with a label and the elapsed time since `since` (epoch ms). */
export const Progress = ({ label, since, detail }: { label: string; since?: number; detail?: string }) => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [since]);
  return (
    <div className="progress" role="status" aria-live="polite" aria-busy="true">
      <div className="progress-bar" role="progressbar" aria-label={label}>
        <div className="progress-fill" />
      </div>
      <div className="progress-text">
        <span>{label}</span>
        {since !== undefined ? <span className="progress-elapsed">{formatDuration(Math.max(0, now - since))}</span> : null}
        {detail ? <span className="progress-detail">{detail}</span> : null}
      </div>
    </div>
  );
};
