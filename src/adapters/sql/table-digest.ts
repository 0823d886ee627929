import { hash } from 'node:crypto';
import { DatabaseCopyError } from './copy-error.js';

/**
 * An order-free digest of a table's rows: their count and the sum, modulo 2^128, of each
 * row's SHA-256 (its first 16 bytes). The two databases return the same values in different
 * types (SQLite's 0/1 for PostgreSQL's booleans, PostgreSQL's bigint as text), so each value
 * is taken in one form first; text, blobs and numbers are compared exactly. A row's values
 * are written each with its length, so no two rows' texts run together alike.
 */
export class TableDigest {
  rows = 0;
  /** The sum, as four 32-bit words, most significant first. */
  private readonly sum = new Uint32Array(4);

  add(columns: readonly string[], row: Record<string, unknown>): void {
    let text = '';
    for (const column of columns) text += comparable(row[column]);
    const rowHash = hash('sha256', text, 'buffer') as unknown as Buffer;
    let carry = 0;
    for (let word = 3; word >= 0; word--) {
      const total = this.sum[word]! + rowHash.readUInt32BE(word * 4) + carry;
      this.sum[word] = total >>> 0;
      carry = total > 0xffffffff ? 1 : 0;
    }
    this.rows++;
  }

  equals(other: TableDigest): boolean {
    return this.rows === other.rows && this.sum.every((word, i) => word === other.sum[i]);
  }
}

/** A value in the one form both databases' values are compared in: its kind, its length, its text. */
function comparable(value: unknown): string {
  if (value === null || value === undefined) return 'n;';
  let kind = 'v';
  let text: string;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) [kind, text] = ['b', Buffer.from(value).toString('hex')];
  else if (typeof value === 'boolean') text = value ? '1' : '0';
  else if (typeof value === 'bigint' || typeof value === 'number') text = value.toString();
  else if (typeof value === 'string') text = value;
  else throw new DatabaseCopyError(`a value of an unexpected kind (${Object.prototype.toString.call(value)}) cannot be compared`);
  return `${kind}${text.length}:${text}`;
}
