import { startTestRegistry } from '../../support/registry.js';

/** The registry the operations and error tests run against: bodies limited to 4 KiB. */
export const startLimitedRegistry = () => startTestRegistry({ env: { BODY_LIMIT_BYTES: '4096' } });
