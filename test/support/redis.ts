import test, { type ExecutionContext } from 'ava';

/** The Redis the tests share; keys are prefixed per run, so parallel runs never meet. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Declares a test that needs Redis. When the run found Redis unreachable, run-tests.ts said so
 * in one line and these tests are not declared; with REQUIRE_REDIS=1 (CI) they are, and fail.
 */
export function redisTest(title: string, implementation: (t: ExecutionContext) => Promise<void>): void {
  if (process.env.TEST_REDIS_UNREACHABLE !== '1' || process.env.REQUIRE_REDIS === '1') test(title, implementation);
}
