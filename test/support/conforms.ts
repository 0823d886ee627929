import { isRight } from 'fp-ts/lib/Either.js';

/** Whether `body` decodes with the response codec `codec`. */
export const conforms = (codec: { decode(u: unknown): unknown }, body: unknown) => isRight(codec.decode(body) as never);
