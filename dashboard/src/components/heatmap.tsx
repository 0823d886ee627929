import { fmtNumber } from '../format.js';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const hh = (h: number) => String(h).padStart(2, '0');

/** Five shades, from none to the busiest hour; the numbers are in the table. */
const level = (n: number, max: number) => (n === 0 ? 0 : Math.min(4, Math.ceil((n / max) * 4)));

/**
 * Counts by day of the week and hour of the day as a 7 × 24 grid of shaded boxes (CSS grid),
 * and the same counts as a table for keyboard and screen-reader users.
 */
export function Heatmap({ title, counts }: { title: string; counts: number[][] }) {
  const max = Math.max(1, ...counts.flat());
  return (
    <figure class="chart heatmap">
      <figcaption class="chart-title">{title}</figcaption>
      <div class="heat-grid" aria-hidden="true">
        <span />
        {counts[0]!.map((_, h) => (
          <span class="heat-hour" key={h}>
            {h % 6 === 0 ? hh(h) : ''}
          </span>
        ))}
        {counts.map((row, d) => [
          <span class="heat-day" key={`d${d}`}>
            {DAYS[d]!.slice(0, 3)}
          </span>,
          ...row.map((n, h) => <span key={`${d} ${h}`} class={`heat-cell heat-${level(n, max)}`} title={`${DAYS[d]} ${hh(h)}:00: ${n}`} />),
        ])}
      </div>
      <p class="heat-scale muted" aria-hidden="true">
        <span>0</span> <span class="heat-cell heat-1" /> <span class="heat-cell heat-2" /> <span class="heat-cell heat-3" /> <span class="heat-cell heat-4" />{' '}
        <span>{fmtNumber(max)}</span>
      </p>
      <details class="chart-table">
        <summary>Show as a table</summary>
        <div class="table-wrap" tabIndex={0} role="region" aria-label={`${title}, as a table`}>
          <table class="heat-table">
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {counts[0]!.map((_, h) => (
                  <th scope="col" class="num" key={h}>
                    {hh(h)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {counts.map((row, d) => (
                <tr key={d}>
                  <th scope="row">{DAYS[d]}</th>
                  {row.map((n, h) => (
                    <td class="num" key={h}>
                      {n}
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
