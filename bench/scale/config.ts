// The knobs of `npm run bench:scale` (SCALE_…), read once; scale.ts's header says what each does.
export const SIZES = (process.env.SCALE_SIZES ?? '1000000,10000000').split(',').map(Number);
export const DIALECTS = (process.env.SCALE_DATABASES ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
export const REQUESTS = Number(process.env.SCALE_REQUESTS ?? 100);
export const WARMUP = 10;
export const RATE_SLICE_S = Number(process.env.SCALE_RATE_S ?? 5);
export const KEEP = process.env.SCALE_KEEP === '1';
export const RATE_ROUNDS = Number(process.env.SCALE_RATE_ROUNDS ?? 3);
export const RATES_ONLY = process.env.SCALE_RATES_ONLY === '1';
export const ROUTES = process.env.SCALE_ROUTES === undefined ? undefined : new RegExp(process.env.SCALE_ROUTES);
/**
 * Connection counts the submission rates are measured at (SCALE_RATE_CONNECTIONS, default 16;
 * e.g. `16,64`). With more than one, each server's rate is its best count's, as `npm run
 * bench` takes a server's maximum rate: a closed loop of few clients can leave a server that
 * waits longer per commit short of its capacity while the machine idles.
 */
export const RATE_CONNECTIONS = (process.env.SCALE_RATE_CONNECTIONS ?? '16').split(',').map(Number);
export const GAP = Number(process.env.SCALE_GAP ?? 0);
export const SUSTAINED_S = Number(process.env.SCALE_SUSTAINED_S ?? 0);
export const SUSTAINED_SLICE_S = 30;
