import * as t from 'io-ts';
import { MAX_SPAN_DAYS, PRESET_NAMES, type Preset } from '../../../domain/stats/statistics-window.js';
import { DateTimeMs, described, enumOf } from './common.codecs.js';
import { intFromQuery } from './fleet-field.codecs.js';

const oneOf = enumOf;

/** GET /v1/stats/wallet/{addr}/report */
export const StatisticsQuery = t.partial(
  {
    range: oneOf<Preset>('range', PRESET_NAMES, {
      description: 'A named range ending with the current hour (24h) or day (7d, 30d, 90d). Default 7d when neither range nor from/to is given.',
    }),
    from: described(DateTimeMs, {
      type: 'string',
      format: 'date-time',
      description: `Start of a custom window (with \`to\`, without \`range\`). Windows up to 48 hours are counted by hour, longer ones by day, widened to whole buckets; at most ${MAX_SPAN_DAYS} days.`,
    }),
    to: described(DateTimeMs, { type: 'string', format: 'date-time', description: 'End of a custom window, exclusive.' }),
    top: intFromQuery('top', 1, 50, 10),
    format: oneOf<'json' | 'csv'>('format', ['json', 'csv'], {
      description: 'json or csv: the statistics as a file to download (Content-Disposition: attachment). Without it: JSON, not as an attachment.',
    }),
  },
  'StatisticsQuery',
);

const Share = t.type({ id: t.string, proofs: t.number }, 'ProofShare');
const Breakdown = t.type(
  {
    entries: t.array(Share),
    other: described(t.number, { type: 'integer', description: 'The proofs of the window in no entry (for robots, proofs without a robot id too).' }),
    total: described(t.number, { type: 'integer', description: 'Every proof of the window: the entries plus other.' }),
  },
  'ProofBreakdown',
);

export const StatisticsResponse = t.type(
  {
    wallet_address: t.string,
    range: t.union([t.literal('24h'), t.literal('7d'), t.literal('30d'), t.literal('90d'), t.literal('custom')]),
    bucket: t.union([t.literal('hour'), t.literal('day')]),
    from: described(t.string, { type: 'string', format: 'date-time', description: 'Start of the first bucket (UTC).' }),
    to: described(t.string, { type: 'string', format: 'date-time', description: 'End of the last bucket, exclusive.' }),
    time_zone: described(t.literal('UTC'), { type: 'string', enum: ['UTC'], description: 'Buckets, weekdays and hours are UTC.' }),
    proofs: t.number,
    refused: described(t.number, { type: 'integer', description: 'Submissions refused in the window (the envelope did not verify or could not be stored).' }),
    series: t.array(t.type({ t: t.string, proofs: t.number, refused: t.number }, 'StatisticsPoint')),
    robots: Breakdown,
    tasks: Breakdown,
    weekday_hours: described(t.array(t.array(t.number)), {
      type: 'array',
      items: { type: 'array', items: { type: 'integer' }, minItems: 24, maxItems: 24 },
      minItems: 7,
      maxItems: 7,
      description: 'Proofs by UTC weekday (rows Monday to Sunday) and UTC hour (columns 0 to 23).',
    }),
    requests: t.type(
      {
        from: t.string,
        to: t.string,
        requests: t.number,
        errors: t.number,
        endpoints: t.array(t.type({ endpoint: t.string, requests: t.number, errors: t.number }, 'EndpointRequests')),
      },
      'KeyRequests',
    ),
  },
  'Statistics',
);
