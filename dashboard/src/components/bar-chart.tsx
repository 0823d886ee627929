import type { ComponentChildren } from 'preact';
import { fmtNumber } from '../format.js';

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** The part of `value` that failed, drawn as the striped end of the bar. */
  readonly errors?: number;
  /** A summed remainder ("Other"): set apart in the chart and the table. */
  readonly rest?: boolean;
}

/**
 * Categories (robots, tasks, endpoints) as horizontal bars, with the same numbers as a table
 * under a disclosure: the bars are boxes sized by CSS, hidden from assistive technology.
 */
export function BarChart(p: {
  title: string;
  bars: readonly Bar[];
  labelHeader: string;
  valueHeader: string;
  errorsHeader?: string;
  total?: number;
  empty: string;
  footer?: ComponentChildren;
}) {
  const max = Math.max(1, ...p.bars.map((b) => b.value));
  const width = (n: number) => `${(n / max) * 100}%`;
  const shown = p.bars.filter((b) => !b.rest || b.value > 0);
  return (
    <figure class="chart bar-chart">
      <figcaption class="chart-title">{p.title}</figcaption>
      {shown.length === 0 ? (
        <p class="chart-empty">{p.empty}</p>
      ) : (
        <div class="hbars" aria-hidden="true">
          {shown.map((b) => (
            <div class={`hbar${b.rest ? ' hbar-rest' : ''}`} key={`${b.rest ? 'rest' : 'bar'} ${b.label}`}>
              <span class="hbar-label mono" title={b.label}>
                {b.label}
              </span>
              <span class="hbar-track">
                <span class="hbar-ok" style={{ width: width(b.value - (b.errors ?? 0)) }} />
                {b.errors ? <span class="hbar-err" style={{ width: width(b.errors) }} /> : null}
              </span>
              <span class="hbar-value">{fmtNumber(b.value)}</span>
            </div>
          ))}
        </div>
      )}
      {p.footer}
      <details class="chart-table">
        <summary>Show as a table</summary>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{p.title}</caption>
            <thead>
              <tr>
                <th scope="col">{p.labelHeader}</th>
                <th scope="col" class="num">
                  {p.valueHeader}
                </th>
                {p.errorsHeader ? (
                  <th scope="col" class="num">
                    {p.errorsHeader}
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {p.bars.map((b) => (
                <tr key={`${b.rest ? 'rest' : 'bar'} ${b.label}`}>
                  <th scope="row" class={b.rest ? undefined : 'mono'}>
                    {b.label}
                  </th>
                  <td class="num">{fmtNumber(b.value)}</td>
                  {p.errorsHeader ? <td class="num">{fmtNumber(b.errors ?? 0)}</td> : null}
                </tr>
              ))}
            </tbody>
            {p.total !== undefined ? (
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td class="num">{fmtNumber(p.total)}</td>
                  {p.errorsHeader ? <td class="num">{fmtNumber(p.bars.reduce((n, b) => n + (b.errors ?? 0), 0))}</td> : null}
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      </details>
    </figure>
  );
}
