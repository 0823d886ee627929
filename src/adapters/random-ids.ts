import { randomBytes } from 'node:crypto';

/** A new group id: unguessable, so ids reveal neither order nor how many groups exist. */
export const newGroupId = (): string => `grp_${randomBytes(12).toString('hex')}`;

/** Byte order of UTF-8 strings: how SQLite and PostgreSQL (COLLATE "C") order ids and names. */
export const byteOrder = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
