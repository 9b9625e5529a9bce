import { useEffect, useRef } from 'react';
import UPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { CHART_HEIGHT } from './Chart';

/** One line of a chart: its name in the legend, its colours, and a value for each day. */
export interface DailySeries {
  label: string;
  stroke: string;
  fill?: string;
  values: number[];
}

export interface DailyChartProps {
  /** The days, oldest first (`YYYY-MM-DD`), one for each value of every series. */
  days: string[];
  series: DailySeries[];
  /** What the chart shows, for assistive technology. */
  label: string;
}

/** Figures per day, drawn with uPlot; this module is loaded lazily (Chart.tsx), on the admin page only. */
export function DailyChart({ days, series, label }: DailyChartProps) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const chart = new UPlot(
      {
        width: element.clientWidth,
        height: CHART_HEIGHT,
        scales: { x: { time: true } },
        axes: [{ stroke: '#445674' }, { stroke: '#445674', grid: { stroke: '#e9eef5' } }],
        series: [{}, ...series.map(({ label: name, stroke, fill }) => ({ label: name, stroke, fill, width: 2 }))],
      },
      [x, ...series.map((line) => line.values)],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days, series]);

  return <div ref={container} className="w-full" role="img" aria-label={label} />;
}
