/**
 * Counts added in memory and written in batches: one row per key (a key, a day; a wallet, an
 * hour) per flush instead of one write per request, so counting never slows a request. The
 * owner flushes it on a timer, before reading the counts back, and on shutdown.
 */
export class BufferedTally<Row> {
  private pending = new Map<string, Row>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly keyOf: (row: Row) => string,
    private readonly merge: (a: Row, b: Row) => Row,
    private readonly write: (rows: readonly Row[]) => Promise<void>,
  ) {}

  add(row: Row): void {
    const key = this.keyOf(row);
    const seen = this.pending.get(key);
    this.pending.set(key, seen === undefined ? row : this.merge(seen, row));
  }

  /** Writes what was counted so far; flushes run one after another, never interleaved. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.writePending());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.write(rows);
    } catch (err) {
      // Kept for the next flush rather than lost.
      for (const row of rows) this.add(row);
      throw err;
    }
  }
}
