import * as t from 'io-ts';
import { documented } from '../openapi/codec-schema.js';
import { DateTimeMs, described } from './common.codecs.js';

const bucketSize = documented(
  new t.Type<'hour' | 'day', string, unknown>(
    'bucket',
    (u): u is 'hour' | 'day' => u === 'hour' || u === 'day',
    (u, c) => (u === 'hour' || u === 'day' ? t.success(u) : t.failure(u, c, 'must be one of hour, day')),
    t.identity,
  ),
  { type: 'string', enum: ['hour', 'day'], default: 'hour', description: 'UTC hours or UTC days.' },
);

/** GET /v1/stats/wallet/{addr}/series */
export const SeriesQuery = t.partial(
  {
    bucket: bucketSize,
    from: described(DateTimeMs, {
      type: 'string',
      format: 'date-time',
      description: 'Start of the window (its bucket is included). Default: 23 hours or 29 days before the current bucket.',
    }),
    to: described(DateTimeMs, {
      type: 'string',
      format: 'date-time',
      description: 'End of the window, exclusive (the bucket holding the instant before it is the last). Default: now.',
    }),
  },
  'SeriesQuery',
);

export const SeriesPointResponse = t.type(
  {
    t: described(t.string, { type: 'string', format: 'date-time', description: 'Start of the bucket (UTC).' }),
    proofs: t.number,
    invalid: described(t.number, { type: 'integer', description: 'Submissions refused in the bucket: the envelope did not verify (or could not be stored).' }),
    devices_active: described(t.number, { type: 'integer', description: 'Distinct devices (robot_id) with a proof created in the bucket.' }),
  },
  'SeriesPoint',
);
export const SeriesResponse = t.type(
  { wallet_address: t.string, bucket: t.union([t.literal('hour'), t.literal('day')]), from: t.string, to: t.string, points: t.array(SeriesPointResponse) },
  'ActivitySeries',
);

export const DashboardConfigResponse = t.type(
  {
    balance_source: t.union([t.literal('local_ledger'), t.literal('solana_rpc')]),
    development_wallet: described(t.boolean, {
      type: 'boolean',
      description: 'Whether the sign-in page offers a browser-held development wallet: only on the local ledger.',
    }),
    chain_id: t.string,
    access_token_mint: t.string,
    minimum_balance: t.number,
    token_ttl_s: t.number,
    fund_command: described(t.union([t.string, t.null]), {
      type: ['string', 'null'],
      description: 'On the local ledger: the CLI command that funds a wallet, with <wallet> to replace. Null otherwise.',
    }),
  },
  'DashboardConfig',
);
