import { useEffect, useRef } from 'react';
import UPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

interface Props {
  days: string[];
  subscribers: number[];
  leads: number[];
}

/** Newsletter sign-ups and leads per day, drawn with uPlot; this module is loaded lazily by the dashboard, on the admin page only. */
export function ActivityChart({ days, subscribers, leads }: Props) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const chart = new UPlot(
      {
        width: element.clientWidth,
        height: 260,
        scales: { x: { time: true } },
        axes: [{ stroke: '#445674' }, { stroke: '#445674', grid: { stroke: '#e9eef5' } }],
        series: [
          {},
          { label: 'Sign-ups', stroke: '#0f766e', width: 2, fill: 'rgba(20,184,166,0.12)' },
          { label: 'Leads', stroke: '#b7791f', width: 2 },
        ],
      },
      [x, subscribers, leads],
      element,
    );
    const observer = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 260 }));
    observer.observe(element);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [days, subscribers, leads]);

  return (
    <div
      ref={container}
      className="w-full"
      role="img"
      aria-label={`Newsletter sign-ups and leads per day over the last ${days.length} days`}
    />
  );
}
