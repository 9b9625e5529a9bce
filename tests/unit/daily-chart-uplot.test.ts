// @vitest-environment jsdom
/**
 * The chart's options as uPlot itself reads them, in jsdom: its legend says the last day's
 * figures when drawn, the hovered day's while the pointer is on one, and the last day's again
 * once it leaves; its figures axis starts at zero; its day axis writes dates alone. jsdom draws
 * nothing, so the canvas is a stand-in whose every drawing call does nothing: what is checked
 * is what uPlot computes and writes in the page, not pixels.
 */
import { expect, test } from 'vitest';
import { chartSetup } from '../../src/components/islands/admin/chart-data';

/** What the chart wrote on its canvas. */
const written: string[] = [];

// What jsdom lacks and uPlot asks for, some of it as it loads: a media query for the pixel ratio,
// paths, and a 2D context.
/** Every text the chart writes on its canvas (its axes' labels) is kept; every other drawing call does nothing. */
const drawing: Record<string | symbol, unknown> = {
  fillText: (text: string) => written.push(text),
  measureText: () => ({ width: 30 }),
};
const context = new Proxy(drawing, { get: (fields, name) => (name in fields ? fields[name] : () => {}) });
Object.assign(window, {
  matchMedia: (media: string) =>
    Object.assign(new EventTarget(), { matches: false, media, onchange: null, addListener() {}, removeListener() {} }),
});
Object.assign(globalThis, {
  Path2D: class {
    addPath() {}
    arc() {}
    bezierCurveTo() {}
    closePath() {}
    lineTo() {}
    moveTo() {}
    rect() {}
  },
});
Object.defineProperty(HTMLCanvasElement.prototype, 'getContext', { value: () => context });

const { default: UPlot } = await import('uplot');

const DAYS = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'];
const SERIES = [
  { label: 'Visitors', stroke: '#0f766e', values: [3, 2, 3, 2] },
  { label: 'Views', stroke: '#b7791f', values: [12, 7, 1480, 9] },
];

/** uPlot draws, and takes new data, in a microtask. */
const drawn = () => new Promise((done) => setTimeout(done));

/** The chart, drawn, and its legend's rows as text. */
async function draw() {
  written.length = 0;
  const element = document.createElement('div');
  document.body.append(element);
  const { options, data } = chartSetup(DAYS, SERIES, { width: 600, height: 260 });
  const chart = new UPlot(options, data, element);
  await drawn();
  const legend = () =>
    [...element.querySelectorAll('.u-legend .u-series')].map((row) => row.textContent?.replace(/\s+/g, ' ').trim());
  return { chart, legend };
}

test("the legend says the last day's figures until a day is pointed at, and again once the pointer leaves", async () => {
  const { chart, legend } = await draw();
  const lastDay = ['Day2 Nov 2026', 'Visitors2', 'Views9'];
  expect(legend()).toEqual(lastDay);
  // The pointer moves onto the third day, then leaves the chart, as uPlot hears it from the page.
  chart.over.dispatchEvent(new MouseEvent('mousemove', { clientX: chart.valToPos(2, 'x'), clientY: 10 }));
  expect(legend()).toEqual(['Day1 Nov 2026', 'Visitors3', 'Views1,480']);
  chart.over.dispatchEvent(new MouseEvent('mouseleave'));
  expect(legend()).toEqual(lastDay);
  chart.destroy();
});

test('the figures axis starts at zero, however little the figures move', async () => {
  const { chart } = await draw();
  expect(chart.scales.y.min).toBe(0);
  // Figures that move between 40 and 42: uPlot's own range would run from 39.8 to 42.2.
  chart.setData([chart.data[0], [40, 41, 40, 42], [40, 41, 40, 42]]);
  await drawn();
  expect([chart.scales.y.min, chart.scales.y.max]).toEqual([0, 47]);
  chart.destroy();
});

test('the day axis writes each day as a date, "2 Nov", with no time of day; the figures axis starts at 0', async () => {
  const { chart } = await draw();
  expect(written).toEqual(expect.arrayContaining(['30 Oct', '31 Oct', '1 Nov', '2 Nov', '0']));
  expect(written.filter((text) => /\d:\d\d|am|pm/i.test(text))).toEqual([]);
  chart.destroy();
});
