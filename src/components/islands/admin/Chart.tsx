import { lazy, Suspense } from 'react';
import type { DailyChartProps } from './DailyChart';

/** The chart's height in pixels, and its placeholder's. */
export const CHART_HEIGHT = 260;

/** The chart's code (uPlot), fetched apart: the dashboard asks for it while the figures are on their way. */
export const loadChart = () => import('./DailyChart').then((module) => ({ default: module.DailyChart }));
const DailyChart = lazy(loadChart);

/** A chart of figures per day; until its code has arrived, a blank box of its height, so nothing below it moves. */
export function Chart(props: DailyChartProps) {
  return (
    <Suspense fallback={<div style={{ height: CHART_HEIGHT }} />}>
      <DailyChart {...props} />
    </Suspense>
  );
}
