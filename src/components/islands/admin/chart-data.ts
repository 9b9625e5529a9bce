/**
 * What a chart of figures per day draws and writes: its points, its axes' range, steps and labels,
 * its legend, and the uPlot options made of them. It imports uPlot's types only, so the unit tests
 * read it without a browser; DailyChart.tsx mounts the chart and keeps it as wide as its box.
 */
import type UPlot from 'uplot';
import { formatDay, formatNumber } from '../../../lib/format';

/** One line of a chart: its name in the legend, its colours, and a value for each day. */
export interface DailySeries {
  label: string;
  stroke: string;
  fill?: string;
  values: number[];
}

/**
 * Each day's place on the x axis: its index (0, 1, 2…). A day is a date, not a moment: drawn as a
 * timestamp at midnight it would be labelled with a time of day ("12:00am") and placed at a
 * midnight in the reader's time zone, which is not the site's.
 */
export const dayPoints = (days: readonly string[]) => days.map((_, index) => index);

/** The x axis's range: the first day to the last, and a day either side of a lone day (uPlot needs a span). */
export function dayRange(count: number): [number, number] {
  return count > 1 ? [0, count - 1] : [-1, 1];
}

/** Steps between the days labelled on the x axis: a day, two, a week, two weeks, four, a quarter, half a year. */
export const DAY_STEPS = [1, 2, 7, 14, 28, 91, 182];

/** The label of a point of the x axis: its day without the year ("2 Nov"); none between days or past the ends. */
export function dayLabel(days: readonly string[], point: number): string {
  const day = Number.isInteger(point) ? days[point] : undefined;
  return day ? formatDay(day, { year: false }) : '';
}

/**
 * The y axis's range: from zero, whatever the figures (an axis starting at their lowest makes a
 * line that moves between 2 and 3 look like a zig-zag), to a tenth above the highest, so the line
 * never runs along the top edge; 0 to 1 when every figure is 0.
 */
export function valueRange(highest: number): [number, number] {
  return [0, highest > 0 ? highest + Math.ceil(highest / 10) : 1];
}

/** Steps between the y axis's figures: whole numbers only (1, 2, 5, 10, 20, 50…), as the figures are counts. */
export const COUNT_STEPS = Array.from({ length: 10 }, (_, power) => [1, 2, 5].map((step) => step * 10 ** power)).flat();

/**
 * The point the legend reads: the one under the pointer, or the last day when there is none
 * (uPlot asks with `null` before any hover and once the pointer has left), so the legend says
 * today's figures at a glance instead of "--".
 */
export function legendPoint(point: number | null, count: number): number {
  return point ?? count - 1;
}

/** The legend's day: the full date ("2 Nov 2026"), as it stands alone there. */
export function legendDay(days: readonly string[], point: number | null): string {
  const day = days[legendPoint(point, days.length)];
  return day ? formatDay(day) : '';
}

/** The legend's figure of a line, in the site's locale ("1,234"). */
export function legendFigure(values: readonly number[], point: number | null): string {
  const value = values[legendPoint(point, values.length)];
  return value === undefined ? '' : formatNumber(value);
}

const AXIS_COLOUR = '#445674';

/**
 * The uPlot options and data of a chart of `series` over `days` (YYYY-MM-DD, oldest first, a
 * value for each in every series), `width` by `height` pixels.
 */
export function chartSetup(
  days: readonly string[],
  series: readonly DailySeries[],
  size: { width: number; height: number },
): { options: UPlot.Options; data: UPlot.AlignedData } {
  const options: UPlot.Options = {
    ...size,
    scales: {
      x: { time: false, range: () => dayRange(days.length) },
      y: { range: (_chart, _lowest, highest) => valueRange(highest) },
    },
    axes: [
      {
        stroke: AXIS_COLOUR,
        incrs: DAY_STEPS,
        space: 60,
        values: (_chart, points) => points.map((point) => dayLabel(days, point)),
      },
      {
        stroke: AXIS_COLOUR,
        grid: { stroke: '#e9eef5' },
        incrs: COUNT_STEPS,
        values: (_chart, figures) => figures.map((figure) => formatNumber(figure)),
      },
    ],
    // uPlot asks each series for its legend text with a null point when nothing is hovered (when
    // drawn, and each time the pointer leaves): legendPoint answers with the last day.
    series: [
      { label: 'Day', value: (_chart, _raw, _series, point) => legendDay(days, point) },
      ...series.map(({ label, stroke, fill, values }): UPlot.Series => ({
        label,
        stroke,
        fill,
        width: 2,
        value: (_chart, _raw, _series, point) => legendFigure(values, point),
      })),
    ],
  };
  return { options, data: [dayPoints(days), ...series.map((line) => line.values)] };
}
