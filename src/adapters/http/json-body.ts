import { isUtf8 } from 'node:buffer';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { Slots } from './slots.js';
import { HttpError } from './http-error.js';

declare module 'koa' {
  interface Request {
    /** The parsed JSON body (`''` for zero bytes sent as JSON), set by JsonBodyReader. */
    body?: unknown;
    /** The body's text, on routes that ask for it. */
    rawBody?: string;
  }
}

/** Media types read as JSON: application/json and every `+json` type. Anything else is 415. */
const JSON_TYPES = ['application/json', 'application/*+json'];

export interface BodyBounds {
  /**
   * Bodies read and handled at once that are compressed, of unknown length, or declared larger
   * than `smallBodyBytes`: their text and parsed values are what can make a request's memory
   * large, and a compressed one costs its sender next to nothing.
   */
  readonly largeBodySlots: number;
  /** Requests waiting for a large-body slot; past that 503 with Retry-After. */
  readonly largeBodyQueue: number;
  /** A body declared (Content-Length, not compressed) at most this large needs no slot. */
  readonly smallBodyBytes: number;
  /** Objects, arrays, strings and numbers one body may hold: JSON.parse builds one heap object for each. */
  readonly maxValues: number;
}

export const DEFAULT_BODY_BOUNDS: BodyBounds = { largeBodySlots: 2, largeBodyQueue: 64, smallBodyBytes: 256 * 1024, maxValues: 1_000_000 };

/**
 * Reading request bodies: JSON only, UTF-8 only, within a size limit counted on the inflated
 * text, compressed or not, and with a bounded number of values. The bytes are read
 * here, checked, then parsed once: what a request may cost is known before JSON.parse runs.
 */
export class JsonBodyReader {
  readonly slots: Slots;

  constructor(private readonly bounds: BodyBounds = DEFAULT_BODY_BOUNDS) {
    this.slots = new Slots({ slots: bounds.largeBodySlots, queue: bounds.largeBodyQueue, queuePerWallet: Infinity }, 'large or compressed request bodies');
  }

  /** The middleware that reads a route's body: refuses what is not JSON (415), then reads and parses it. */
  forRoute(limitBytes: number, includeUnparsed: boolean): Koa.Middleware[] {
    return [requireJson, (ctx, next) => this.read(ctx, next, limitBytes, includeUnparsed)];
  }

  private async read(ctx: Context, next: Next, limitBytes: number, includeUnparsed: boolean): Promise<void> {
    const method = ctx.method;
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) || !ctx.is(JSON_TYPES)) return next();
    const inflater = contentCoding(ctx);
    const declared = Number(ctx.get('content-length') || NaN);
    if (inflater === null && declared > limitBytes) throw tooLarge(limitBytes);
    // The slot is held until the answer is made: the parsed body lives as long as the handler.
    const large = inflater !== null || !(declared <= this.bounds.smallBodyBytes);
    const release = large ? await this.slots.acquire() : null;
    try {
      const bytes = await collect(ctx.req, inflater, limitBytes);
      if (!isUtf8(bytes)) {
        throw new HttpError(400, 'malformed JSON body: the body is not valid UTF-8 (JSON text must be UTF-8, RFC 8259)', { code: 'malformed_json' });
      }
      // Every value counted starts at a byte of its own, so a body of at most maxValues bytes
      // (an ordinary request's limit is about that) cannot hold more: it is not counted.
      if (bytes.length > this.bounds.maxValues && countValues(bytes, this.bounds.maxValues) > this.bounds.maxValues) {
        throw new HttpError(413, `request body holds too many JSON values (more than ${this.bounds.maxValues} objects, arrays, strings and numbers)`, {
          code: 'body_too_large',
        });
      }
      // A leading byte order mark is not part of the JSON text (RFC 8259 lets a parser ignore it).
      let text = bytes.toString('utf8');
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      ctx.request.body = parse(text);
      if (includeUnparsed && text !== '') ctx.request.rawBody = text;
      await next();
    } finally {
      release?.();
    }
  }
}

/**
 * Any JSON value, not only objects and arrays: a well-formed body of the wrong kind (null, a
 * string, a number) is a 422 naming its kind, not a 400. JSON.parse makes a `__proto__` member
 * an ordinary own property, never an object's prototype, and a signed envelope may carry one
 * in `meta` or event data: its signature covers that member, so it is kept.
 */
function parse(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new HttpError(400, `malformed JSON body: ${(err as Error).message}`, { code: 'malformed_json' });
  }
}

/**
 * The values of a JSON text that JSON.parse allocates on the heap, member names included:
 * objects, arrays, strings and numbers (true, false and null are shared constants), counted
 * until `max` is passed (then max + 1). A bracket or digit inside a string is not counted;
 * the text is not otherwise checked (JSON.parse does that). Each value is counted at its first
 * byte, so the count is never more than the text's length.
 */
export function countValues(bytes: Uint8Array, max: number): number {
  let count = 0;
  let inString = false;
  let escaped = false;
  let inNumber = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
      continue;
    }
    const numeric = (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
    if (numeric) {
      // A number starts with a digit or a minus sign; e, E, + and . only continue one.
      if (!inNumber && ((c >= 0x30 && c <= 0x39) || c === 0x2d) && ++count > max) return count;
      inNumber = true;
      continue;
    }
    inNumber = false;
    if (c === 0x22) inString = true;
    if ((c === 0x22 || c === 0x7b || c === 0x5b) && ++count > max) return count;
  }
  return count;
}

const tooLarge = (limit: number) => new HttpError(413, `request body is too large (limit ${limit} bytes)`, { code: 'body_too_large' });

const notInflatable = () =>
  new HttpError(400, 'malformed JSON body: the compressed body could not be inflated (see Content-Encoding)', { code: 'malformed_json' });

type Inflater = () => Transform;
/** Content-Encoding values that are inflated, and how (null: not compressed). */
const INFLATERS = new Map<string, Inflater | null>([
  ['identity', null],
  ['', null],
  // Unzip reads both gzip and zlib (HTTP's "deflate") framing.
  ['gzip', createUnzip],
  ['deflate', createUnzip],
  ['br', createBrotliDecompress],
]);

/**
 * How the body is compressed: null when it is not. Content codings are case-insensitive
 * (RFC 9110, section 8.4.1); a coding that cannot be undone, or more than one, is 415.
 */
function contentCoding(ctx: Context): Inflater | null {
  const header = ctx.req.headers['content-encoding'];
  if (header === undefined) return null;
  const inflate = INFLATERS.get(header.trim().toLowerCase());
  if (inflate === undefined) {
    throw new HttpError(415, `Content-Encoding ${JSON.stringify(header)} is not supported: send the body uncompressed, or with one of gzip, deflate or br`, {
      code: 'unsupported_media_type',
    });
  }
  return inflate;
}

/**
 * The body's bytes, inflated if compressed, refused (413) as soon as they pass `limit`: an
 * inflater is stopped there, so a small compressed body never inflates past the limit in
 * memory. On refusal the request is left unread for the 413's drain (errors-to-json.ts).
 */
function collect(req: Context['req'], inflater: Inflater | null, limit: number): Promise<Buffer> {
  const inflating = inflater === null ? null : req.pipe(inflater());
  const source: Readable = inflating ?? req;
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: Error | null) => {
      source.off('data', onData).off('end', onEnd).off('error', onError);
      req.off('error', onAbort).off('close', onClose);
      if (inflating !== null) {
        req.unpipe(inflating);
        if (err !== null) inflating.destroy();
      }
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    // The inflater's own errors (a truncated or corrupt stream) are the client's.
    const onError = (err: Error) => finish(inflating === null ? clientGone(err) : notInflatable());
    const onAbort = (err: Error) => finish(clientGone(err));
    const onClose = () => {
      if (!(req as { complete?: boolean }).complete) finish(clientGone(new Error('the request was not sent to its end')));
    };
    source.on('data', onData).on('end', onEnd).on('error', onError);
    if (inflating !== null) req.on('error', onAbort);
    req.on('close', onClose);
  });
}

const clientGone = (err: Error) => new HttpError(400, `the request body could not be read: ${err.message}`, { code: 'bad_request' });

/**
 * The parsed body; a request without one is `{}`, so its members are reported missing. The
 * JSON parser answers `''` for zero bytes sent as JSON, which are not JSON text.
 */
export function bodyOf(ctx: Context): unknown {
  const body: unknown = ctx.request.body;
  if (body === '') throw new HttpError(400, 'malformed JSON body: the body is empty (send a JSON object)', { code: 'malformed_json' });
  return body === undefined ? {} : body;
}

/** The body's text as received (decompressed and decoded), on routes that ask for it; absent when there was none. */
export function rawBodyOf(ctx: Context): string | undefined {
  const raw: unknown = (ctx.request as { rawBody?: unknown }).rawBody;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * A body that is present must be JSON; a request with none decodes as `{}`. Zero bytes sent
 * as JSON are not JSON text (RFC 8259), so they are 400 like any other malformed JSON.
 */
async function requireJson(ctx: Context, next: Next): Promise<void> {
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.is(JSON_TYPES)) {
    throw new HttpError(415, 'request body must be JSON (Content-Type: application/json)', { code: 'unsupported_media_type' });
  }
  await next();
}
