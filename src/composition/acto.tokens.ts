import type { AnyRoute } from '../adapters/http/route.js';
import { token } from './token.js';

/** The ACTO personality: the ACTO SDK's routes under /acto, over the other slices' use cases. */
export const ACTO = {
  Routes: token<readonly AnyRoute[]>('acto.Routes'),
} as const;
