import { useEffect, useRef, useState } from 'preact/hooks';
import type uPlotType from 'uplot';
import { countScale } from '../chart-scale.js';

export interface ChartSeries {
  readonly label: string;
  readonly values: ReadonlyArray<number | null>;
  /** A CSS custom property of the theme, e.g. '--chart-1'. */
  readonly color: string;
  readonly unit?: string;
}

export interface ChartProps {
  readonly title: string;
  /** Bucket starts or sample times, in ms. */
  readonly x: readonly number[];
  readonly series: readonly ChartSeries[];
  readonly kind: 'bars' | 'lines';
  /** How the data table names a row's time. */
  readonly timeLabel?: (ms: number) => string;
  readonly height?: number;
  /** Shown instead of a flat chart when every value is zero or missing. */
  readonly emptyText?: string;
  /** Time axis in UTC rather than the browser's zone (the statistics count by UTC hour and day). */
  readonly utc?: boolean;
}

// uPlot is loaded with the first chart only: pages without one never download it.
let loading: Promise<typeof uPlotType> | null = null;
const loadUPlot = () => (loading ??= import('uplot').then((m) => m.default));

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';

/**
 * A time chart with, for keyboard and screen-reader users, the same numbers as a table under
 * a disclosure: the canvas alone says nothing to assistive technology.
 */
export function Chart(p: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const empty = p.emptyText !== undefined && p.series.every((s) => s.values.every((v) => !v));
  const [failed, setFailed] = useState<string | null>(null);
  // The y axis ends at a labelled step at or above the largest value. Readings below zero (°C)
  // take uPlot's own ticks, with room above the largest.
  const values = p.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const scale = values.every((v) => v >= 0) ? countScale(Math.max(0, ...values)) : null;
  // Redrawn when the numbers change, not whenever the parent renders new arrays of the same numbers.
  const dataKey = JSON.stringify([p.x, p.series.map((s) => [s.label, s.values]), p.kind, p.height]);
  useEffect(() => {
    const el = box.current;
    if (!el || empty) return;
    let plot: uPlotType | null = null;
    let gone = false;
    const observer = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height: p.height ?? 200 }));
    loadUPlot().then(
      (uPlot) => {
        if (gone) return;
        const half = p.x.length > 1 ? (p.x[1]! - p.x[0]!) / 2000 : 0;
        const axis = { stroke: cssVar('--muted'), grid: { stroke: cssVar('--grid'), width: 1 }, ticks: { stroke: cssVar('--grid'), width: 1 } };
        const splits = scale ? { splits: () => [...scale.ticks] } : {};
        plot = new uPlot(
          {
            width: Math.max(el.clientWidth, 200),
            height: p.height ?? 200,
            ...(p.utc ? { tzDate: (ts: number) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC') } : {}),
            // Bars are centred on their bucket: half a bucket of room at each end, so none is cut off.
            scales: {
              // One sample alone gets an hour around it, not an axis of years.
              x: {
                time: true,
                ...(p.kind === 'bars' && p.x.length > 1 ? { range: (_u, min, max) => [min - half, max + half] as [number, number] } : {}),
                ...(p.x.length === 1 ? { range: (_u, min) => [min - 1800, min + 1800] as [number, number] } : {}),
              },
              y: { range: (_u, min, max) => (scale ? [0, scale.max] : [Math.min(0, min), max + 1]) },
            },
            axes: [
              { ...axis, space: 90 },
              { ...axis, ...splits, size: 48 },
            ],
            legend: { show: p.series.length > 1, live: false },
            cursor: { points: { show: p.kind === 'lines' } },
            series: [
              {},
              ...p.series.map((s) => ({
                label: s.unit ? `${s.label} (${s.unit})` : s.label,
                stroke: cssVar(s.color),
                width: p.kind === 'bars' ? 0 : 2,
                fill: p.kind === 'bars' ? cssVar(s.color) : undefined,
                // A line of one sample is a dot.
                points: { show: p.kind === 'lines' && p.x.length === 1 },
                spanGaps: false,
                // Bars of later series are drawn over earlier ones: errors over requests show as the part that failed.
                ...(p.kind === 'bars' ? { paths: uPlot.paths.bars!({ size: [0.7, 40] }) } : {}),
              })),
            ],
          },
          [p.x.map((ms) => ms / 1000), ...p.series.map((s) => [...s.values])] as uPlotType.AlignedData,
          el,
        );
        observer.observe(el);
      },
      (err: Error) => setFailed(err.message),
    );
    return () => {
      gone = true;
      observer.disconnect();
      plot?.destroy();
    };
  }, [dataKey, empty]);

  const label = p.timeLabel ?? ((ms: number) => new Date(ms).toLocaleString());
  return (
    <figure class="chart">
      <figcaption class="chart-title">{p.title}</figcaption>
      {failed ? (
        <p class="note note-error">The chart could not be drawn: {failed}</p>
      ) : empty ? (
        <p class="chart-empty" style={{ height: `${p.height ?? 200}px` }}>
          {p.emptyText}
        </p>
      ) : (
        <div ref={box} class="chart-canvas" aria-hidden="true" data-y-ticks={scale?.ticks.join(' ')} />
      )}
      <details class="chart-table">
        <summary>Show as a table</summary>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{p.title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {p.series.map((s) => (
                  <th scope="col" class="num" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {p.x.map((ms, i) => (
                <tr key={ms}>
                  <td>{label(ms)}</td>
                  {p.series.map((s) => (
                    <td key={s.label} class="num">
                      {s.values[i] ?? '—'}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
