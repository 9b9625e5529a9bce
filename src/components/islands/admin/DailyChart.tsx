import { useEffect, useRef } from 'react';
import UPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_HEIGHT } from './Chart';
import { chartSetup, type DailySeries } from './chart-data';

export interface DailyChartProps {
  /** The days, oldest first (`YYYY-MM-DD`), one for each value of every series. */
  days: string[];
  series: DailySeries[];
  /** What the chart shows, for assistive technology. */
  label: string;
}

/**
 * Figures per day, drawn with uPlot; this module is loaded lazily (Chart.tsx), on the admin page
 * only. What it draws and writes is chart-data.ts's: days as points in order, labelled with their
 * date alone; counts from zero; a legend that reads the last day until a point is hovered.
 */
export function DailyChart({ days, series, label }: DailyChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const { options, data } = chartSetup(days, series, { width: element.clientWidth, height: CHART_HEIGHT });
    const chart = new UPlot(options, data, element);
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days, series]);

  return <div ref={container} className="w-full" role="img" aria-label={label} />;
}
