import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, unzipSync } from 'node:zlib';
import type Koa from 'koa';
import type { Context, Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { HttpError } from './http-error.js';

/** Media types read as JSON: application/json and every `+json` type. Anything else is 415. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Reading request bodies: JSON only, UTF-8 only, within a size limit, compressed or not. One
 * reader per limit (routes may raise the app's), each made once.
 */
export class JsonBodyReader {
  private readonly parsers = new Map<string, Koa.Middleware>();

  /** The middleware that reads a route's body: refuses what is not JSON (415), then parses it as UTF-8. */
  forRoute(limitBytes: number, includeUnparsed: boolean): Koa.Middleware[] {
    return [requireJson, utf8Only(this.parser(limitBytes, includeUnparsed), limitBytes)];
  }

  private parser(limit: number, includeUnparsed: boolean): Koa.Middleware {
    const key = `${limit} ${includeUnparsed}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      // Not strict: any JSON value is parsed, so a well-formed body of the wrong kind (null,
      // a string, a number) is a 422 naming its kind, not a 400.
      parser = koaBody({
        json: true,
        jsonStrict: false,
        jsonTypes: JSON_TYPES,
        jsonLimit: limit,
        includeUnparsed,
        multipart: false,
        urlencoded: false,
        text: false,
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        onError: acceptProtoMembers,
      });
      this.parsers.set(key, parser);
    }
    return parser;
  }
}

/**
 * The parsed body; a request without one is `{}`, so its members are reported missing. The
 * JSON parser answers `''` for zero bytes sent as JSON, which are not JSON text.
 */
export function bodyOf(ctx: Context): unknown {
  const body: unknown = ctx.request.body;
  if (body === '') throw new HttpError(400, 'malformed JSON body: the body is empty (send a JSON object)', { code: 'malformed_json' });
  return body === undefined ? {} : body;
}

/** The text koa-body parsed (`includeUnparsed`); absent when it parsed none, or a body was re-parsed (acceptProtoMembers). */
export function rawBodyOf(ctx: Context): string | undefined {
  const raw: unknown = (ctx.request as { rawBody?: unknown }).rawBody;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * koa-body parses JSON with co-body, which refuses any body with a `__proto__` member (its
 * guard against prototype poisoning) and offers no way to turn that off through koa-body.
 * JSON.parse makes such a member an ordinary own property, never an object's prototype, and a
 * signed envelope may carry one in `meta` or event data: the body is valid and its signature
 * covers that member. So that one refusal is undone by parsing the text co-body attaches to
 * the error with JSON.parse; every other parse error stands (400).
 */
function acceptProtoMembers(error: Error, ctx: Context): void {
  const text = (error as Error & { body?: unknown }).body;
  if (typeof text !== 'string' || !/forbidden prototype property/.test(error.message)) throw error;
  ctx.request.body = JSON.parse(text) as typeof ctx.request.body;
}

/**
 * JSON exchanged between systems must be UTF-8 (RFC 8259, section 8.1), and koa-body decodes
 * a body as UTF-8 whatever it holds, turning each invalid sequence into U+FFFD: a body with
 * one would be read as a different text from the one sent (a signed envelope then fails its
 * hash check for no visible reason; an unsigned member is stored altered). So the bytes are
 * watched as the parser reads them, and a body that is not UTF-8 is 400, before any route
 * sees it. Watching is a second 'data' listener on the request, added in the same turn as the
 * parser's own (nothing is awaited between), so both see every chunk; `buffer.isUtf8`
 * checks the whole body at once, a sequence split between chunks included.
 *
 * A compressed body (Content-Encoding gzip, deflate or br, which the parser inflates) is
 * watched as it arrives and, once the parser has accepted it, inflated again here to check
 * the text it holds: twice the inflating, for the rare client that compresses its requests,
 * so that no body reaches a route decoded lossily. The parser has by then refused any
 * encoding it does not know (415) and any body that inflates past the limit (413).
 */
function utf8Only(parser: Koa.Middleware, limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    const inflate = contentCoding(ctx);
    // A compressed body is never much larger than what it inflates to; twice the limit is room enough.
    const watched = watchBytes(ctx.req, inflate === null ? limitBytes : 2 * limitBytes);
    let bytes: Buffer | null = null;
    try {
      await parser(ctx, async () => undefined);
    } catch (err) {
      // The inflater's own errors (a truncated or corrupt stream) carry no HTTP status.
      if (inflate && typeof (err as { status?: unknown }).status !== 'number') throw notInflatable();
      throw err;
    } finally {
      bytes = watched();
    }
    if (bytes && !isUtf8(inflate === null ? bytes : inflated(inflate, bytes, limitBytes))) {
      throw new HttpError(400, 'malformed JSON body: the body is not valid UTF-8 (JSON text must be UTF-8, RFC 8259)', { code: 'malformed_json' });
    }
    await next();
  };
}

type Inflater = (bytes: Buffer, options: { maxOutputLength: number }) => Buffer;
/** Content-Encoding values the parser inflates, and how (null: not compressed). */
const INFLATERS = new Map<string, Inflater | null>([
  ['identity', null],
  ['', null],
  ['gzip', unzipSync],
  ['deflate', unzipSync],
  ['br', brotliDecompressSync],
]);

/**
 * How the body is compressed: null when it is not. Content codings are case-insensitive
 * (RFC 9110, section 8.4.1) and the parser (the `inflation` package) matches them exactly, so
 * the header is normalized for it here; a coding it cannot undo, or more than one, is 415.
 */
function contentCoding(ctx: Context): Inflater | null {
  const header = ctx.req.headers['content-encoding'];
  if (header === undefined) return null;
  const coding = header.trim().toLowerCase();
  const inflate = INFLATERS.get(coding);
  if (inflate === undefined) {
    throw new HttpError(415, `Content-Encoding ${JSON.stringify(header)} is not supported: send the body uncompressed, or with one of gzip, deflate or br`, {
      code: 'unsupported_media_type',
    });
  }
  ctx.req.headers['content-encoding'] = coding;
  return inflate;
}

function inflated(inflate: Inflater, bytes: Buffer, limitBytes: number): Buffer {
  try {
    return inflate(bytes, { maxOutputLength: limitBytes + 1 });
  } catch {
    throw notInflatable();
  }
}

const notInflatable = () => new HttpError(400, 'malformed JSON body: the compressed body could not be inflated (see Content-Encoding)', { code: 'malformed_json' });

/** The bytes `stream` delivers from now on, up to `limitBytes` (null past it: the parser refuses those). */
function watchBytes(stream: NodeJS.ReadableStream, limitBytes: number): () => Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) {
      over = true;
      chunks.length = 0;
      stream.off('data', onData);
    } else chunks.push(chunk);
  };
  stream.on('data', onData);
  return () => {
    stream.off('data', onData);
    if (over) return null;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  };
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
