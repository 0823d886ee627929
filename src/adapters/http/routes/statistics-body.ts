import type { Breakdown, Statistics } from '../../../application/dashboard/get-statistics.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { WEEKDAYS } from '../../../domain/stats/statistics-window.js';
import { csvRow } from '../csv.js';

const breakdownBody = (b: Breakdown) => ({ entries: b.entries.map((e) => ({ id: e.id, proofs: e.proofs })), other: b.other, total: b.total });

/** The statistics as the API answers them in JSON. */
export function statisticsBody(wallet: string, s: Statistics) {
  return {
    wallet_address: wallet,
    range: s.range,
    bucket: s.window.size,
    from: toRfc3339(s.window.fromMs),
    to: toRfc3339(s.window.toMs),
    time_zone: 'UTC' as const,
    proofs: s.proofs,
    refused: s.refused,
    series: s.points.map((p) => ({ t: toRfc3339(p.startMs), proofs: p.proofs, refused: p.refused })),
    robots: breakdownBody(s.robots),
    tasks: breakdownBody(s.tasks),
    weekday_hours: s.weekdayHours,
    requests: {
      from: toRfc3339(s.usage.fromMs),
      to: toRfc3339(s.usage.toMs),
      requests: s.usage.requests,
      errors: s.usage.errors,
      endpoints: s.usage.endpoints.map((e) => ({ endpoint: e.endpoint, requests: e.requests, errors: e.errors })),
    },
  };
}

/**
 * The statistics as one CSV table of `section,key,metric,value`, a figure per row (docs/api.md,
 * "Statistics"): every section has the same columns, so one file holds them all.
 */
export function statisticsCsv(s: Statistics): string {
  const rows: Array<readonly [string, string, string, number]> = [];
  for (const p of s.points) {
    const t = toRfc3339(p.startMs);
    rows.push(['series', t, 'proofs', p.proofs], ['series', t, 'refused', p.refused]);
  }
  for (const [section, b] of [
    ['robots', s.robots],
    ['tasks', s.tasks],
  ] as const) {
    for (const e of b.entries) rows.push([section, e.id, 'proofs', e.proofs]);
    rows.push([section, '', 'other', b.other], [section, '', 'total', b.total]);
  }
  s.weekdayHours.forEach((hours, day) =>
    hours.forEach((n, hour) => rows.push(['weekday_hours', `${WEEKDAYS[day]} ${String(hour).padStart(2, '0')}`, 'proofs', n])),
  );
  for (const e of s.usage.endpoints) rows.push(['requests', e.endpoint, 'requests', e.requests], ['requests', e.endpoint, 'errors', e.errors]);
  rows.push(['requests', '', 'requests', s.usage.requests], ['requests', '', 'errors', s.usage.errors]);
  return csvRow(['section', 'key', 'metric', 'value']) + rows.map((r) => csvRow(r)).join('');
}

/** The name a download is saved under: the window's two ends, to the hour. */
export function statisticsFileName(s: Statistics, ext: 'csv' | 'json'): string {
  const hour = (ms: number) => `${toRfc3339(ms).slice(0, 13)}Z`;
  return `statistics-${hour(s.window.fromMs)}-${hour(s.window.toMs)}.${ext}`;
}
