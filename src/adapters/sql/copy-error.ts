/** Why a copy was refused or failed; the message says what to do. Nothing in the source changes. */
export class DatabaseCopyError extends Error {
  override readonly name = 'DatabaseCopyError';
}
