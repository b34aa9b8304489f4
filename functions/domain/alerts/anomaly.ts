/**
 * @module alerts/anomaly
 * The odd-run rule (ADR 0052): a run's figure is odd when it lies far from the job's recent
 * successful runs by a robust measure — median and MAD (median absolute deviation), which a few
 * earlier odd runs do not drag along as a mean and standard deviation would — *and* far in
 * relative terms, so a job whose runs barely vary (MAD near 0) does not alert on a second's jitter.
 */

/** The rule's knobs (a rule's `ODD_RUN` settings). */
export interface OddRunRule {
  readonly minHistory: number;
  readonly threshold: number;
  readonly minRelativeChange: number;
}

/** How one figure compares with its history. */
export interface FigureVerdict {
  readonly odd: boolean;
  readonly value: number;
  readonly median: number;
  readonly mad: number;
  /** |value − median| / (1.4826 · MAD); `null` when MAD is 0 (every earlier run the same). */
  readonly robustZ: number | null;
  /** |value − median| / median; `null` when the median is 0. */
  readonly relativeChange: number | null;
  readonly history: number;
}

/** 1 / Φ⁻¹(3/4): scales the MAD to a standard deviation's size for normally distributed figures. */
const MAD_SCALE = 1.4826;

/** The median of numbers (not empty). */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Judges `value` against `history` (the job's recent successful runs' figures); `undefined` with
 * fewer than `minHistory` of them (too little to know what is normal).
 */
export const judgeFigure = (value: number, history: readonly number[], rule: OddRunRule): FigureVerdict | undefined => {
  if (history.length < rule.minHistory || history.length === 0) return undefined;
  const m = median(history);
  const mad = median(history.map((x) => Math.abs(x - m)));
  const distance = Math.abs(value - m);
  const robustZ = mad === 0 ? null : distance / (MAD_SCALE * mad);
  const relativeChange = m === 0 ? null : distance / Math.abs(m);
  // With MAD 0 every earlier run agreed: only the relative change can tell a real departure.
  const farByZ = robustZ === null ? distance > 0 : robustZ > rule.threshold;
  const farRelatively = relativeChange === null ? distance > 0 : relativeChange >= rule.minRelativeChange;
  return { odd: farByZ && farRelatively, value, median: m, mad, robustZ, relativeChange, history: history.length };
};
