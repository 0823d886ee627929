/** Display helpers: every date in the viewer's locale, with UTC in the title for exactness. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const number = new Intl.NumberFormat();
const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
const dayClock = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });

export const fmtNumber = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : number.format(n));

/** A count with its noun, singular for exactly one: "1 error", "0 errors", "2.5 access tokens". */
export const fmtCount = (n: number | null | undefined, one: string, many = `${one}s`): string => `${fmtNumber(n)} ${n === 1 ? one : many}`;

export function fmtDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

export function fmtAgo(iso: string | null | undefined, nowMs = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.round((nowMs - Date.parse(iso)) / 1000);
  if (!Number.isFinite(s)) return iso;
  if (s < 0) return 'in the future';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

export const fmtPercent = (x: number | null | undefined, digits = 1): string => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits)} %`);

/** A long id shortened in the middle; the full id stays in the title and the copy button. */
export const shortId = (id: string, keep = 8): string => (id.length <= keep * 2 + 1 ? id : `${id.slice(0, keep)}…${id.slice(-keep)}`);

/** A moment in a feed: the time of day for today, with the day before that. */
export function fmtMoment(iso: string, nowMs = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Date(nowMs).toDateString() === d.toDateString() ? clock.format(d) : dayClock.format(d);
}
