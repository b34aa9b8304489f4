/**
 * The odd-run rule (`domain/alerts/anomaly.ts`, ADR 0052): median and MAD over the job's recent
 * successful runs, with a minimum history and a minimum relative change.
 */
import { describe, expect, it } from 'vitest';
import { judgeFigure, median } from '#domain/alerts/anomaly';

const rule = { minHistory: 5, threshold: 5, minRelativeChange: 0.5 };

describe('judgeFigure', () => {
  it('Should call a run ten times the usual duration odd, with the median, MAD and robust z it used', () => {
    // Act
    const verdict = judgeFigure(100, [10, 11, 9, 10, 12, 10], rule);
    // Assess
    expect(verdict).toMatchObject({ odd: true, median: 10, mad: 0.5, history: 6 });
    expect(verdict?.robustZ).toBeCloseTo(90 / (1.4826 * 0.5), 6);
    expect(verdict?.relativeChange).toBe(9);
  });

  it('Should judge nothing with fewer runs than the minimum history', () => {
    expect(judgeFigure(100, [10, 11, 9, 10], rule)).toBeUndefined();
  });

  it('Should not call a run odd for a small change, however steady the history (MAD 0)', () => {
    // Act: every earlier run took 60 s; this one 61 s (MAD 0: any change is infinitely many MADs away).
    const verdict = judgeFigure(61, [60, 60, 60, 60, 60], rule);
    // Assess
    expect(verdict).toMatchObject({ odd: false, mad: 0, robustZ: null });
  });

  it('Should call a large change odd against a steady history (MAD 0)', () => {
    expect(judgeFigure(200, [60, 60, 60, 60, 60], rule)?.odd).toBe(true);
  });

  it('Should not call a run odd when it is far relatively but within the spread of a noisy job', () => {
    // Act: a job whose runs swing between 10 and 100; 160 is +60 % on the median but under 5 MADs.
    const verdict = judgeFigure(160, [10, 100, 20, 90, 50, 100, 30], rule);
    // Assess
    expect(verdict?.odd).toBe(false);
    expect(verdict?.relativeChange).toBeGreaterThan(0.5);
  });

  it('Should not let one earlier outlier drag the median (robust where a mean is not)', () => {
    // Act: one earlier run of 1000 among tens; a run of 11 stays ordinary, one of 100 is odd.
    const history = [10, 11, 9, 10, 1000, 10];
    // Assess
    expect(judgeFigure(11, history, rule)?.odd).toBe(false);
    expect(judgeFigure(100, history, rule)?.odd).toBe(true);
  });

  it('Should call a drop odd too (rows written falling to a tenth)', () => {
    expect(judgeFigure(100, [1000, 1010, 990, 1005, 995], rule)?.odd).toBe(true);
  });
});

describe('median', () => {
  it('Should take the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
