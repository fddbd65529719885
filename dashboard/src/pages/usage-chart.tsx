/**
 * Pages per day as a uPlot bar chart. The canvas says nothing to assistive technology, so the
 * container is an image with a summary as its name; the page shows the same data as a table.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { UsageDay } from '../types';

const HEIGHT = 240;
const BAR = '#1d4ed8';
const HALF_DAY = 12 * 60 * 60;

/** Midnight UTC of a "YYYY-MM-DD" day, in seconds (uPlot's time unit). */
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000;

export function UsageChart({ days, label }: { days: UsageDay[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const options: uPlot.Options = {
      width: element.clientWidth,
      height: HEIGHT,
      // Days are calendar dates: show them as such whatever the reader's time zone.
      tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: {
        // Half a day either side, so the first and last bars are not cut in half at the edges.
        x: { range: (_u, min, max) => [min - HALF_DAY, max + HALF_DAY] },
        y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
      },
      axes: [{ stroke: '#1f2937', grid: { show: false } }, { stroke: '#1f2937', grid: { stroke: '#e5e7eb' } }],
      series: [
        {},
        {
          label: 'Pages',
          stroke: BAR,
          fill: BAR,
          paths: uPlot.paths.bars?.({ size: [0.7, 40] }),
          points: { show: false },
        },
      ],
    };
    const data: uPlot.AlignedData = [days.map((d) => dayStart(d.day)), days.map((d) => d.pages)];
    const chart = new uPlot(options, data, element);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days]);

  return <div class="chart" ref={container} role="img" aria-label={label} />;
}
