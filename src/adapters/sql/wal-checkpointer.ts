import type sqlite3 from 'sqlite3';

export interface WalCheckpointOptions {
  /** Commits between two background checkpoints (default 16: about SQLite's own 1,000 pages under load). */
  readonly everyCommits?: number;
  /**
   * WAL frames past which the writer restarts the WAL itself, between two transactions
   * (default 40,000: 160 MB). A restart holds the writer for about 13 ms (the frames the last
   * checkpoint left, and two fsyncs); at 10,000 frames it ran about three times a second at
   * full load and held the writer 4% of the time.
   */
  readonly walFramesLimit?: number;
}

/**
 * Checkpoints the writer thread's WAL in the background, on a connection of its own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages: under
 * load that made the average commit 2.7 ms instead of about 1 ms, and one request in a few
 * hundred waited for a whole checkpoint. The writer connection turns it off
 * (`wal_autocheckpoint = 0`) and this runs a PASSIVE checkpoint every few commits instead;
 * in WAL mode a checkpoint copies pages into the database file while the writer goes on
 * appending, so commits no longer pay for it.
 *
 * The WAL starts again from its beginning only when a checkpoint has copied all of it before
 * the next write begins, which continuous writes can prevent for as long as they last. So when
 * a checkpoint finds the WAL past `walFramesLimit`, the writer runs one RESTART checkpoint
 * between two transactions: it copies what is left and lets the next write start the WAL over.
 */
export class WalCheckpointer {
  private readonly everyCommits: number;
  private readonly walFramesLimit: number;
  private running: Promise<void> | null = null;
  private commits = 0;
  private restartDue = false;
  private restartCount = 0;

  constructor(
    private readonly connection: sqlite3.Database,
    options: WalCheckpointOptions = {},
  ) {
    this.everyCommits = Math.max(1, options.everyCommits ?? 16);
    this.walFramesLimit = options.walFramesLimit ?? 40_000;
  }

  /** WAL restarts the writer has run so far. */
  get restarts(): number {
    return this.restartCount;
  }

  /** Told after each commit of the writer; starts a checkpoint when one is due and none runs. */
  committed(): void {
    if (++this.commits < this.everyCommits || this.running !== null) return;
    this.commits = 0;
    this.running = new Promise<void>((resolve) => {
      this.connection.all<{ log: number }>('PRAGMA wal_checkpoint(PASSIVE)', (err, rows) => {
        // A passive checkpoint that could not run (another one was running) is simply tried
        // again after the next commits; it never holds up the writer.
        const frames = err ? undefined : rows[0]?.log;
        if (frames !== undefined && frames > this.walFramesLimit) this.restartDue = true;
        this.running = null;
        resolve();
      });
    });
  }

  /** Run by the writer before a transaction, on its own connection: restarts the WAL when it is due. */
  async beforeTransaction(writer: sqlite3.Database): Promise<void> {
    if (!this.restartDue) return;
    this.restartDue = false;
    await this.running;
    // `busy` is 1 when the restart could not finish (a reader held on to the old WAL past the busy timeout).
    const restarted = await new Promise<boolean>((resolve) =>
      writer.all<{ busy: number }>('PRAGMA wal_checkpoint(RESTART)', (err, rows) => resolve(err === null && rows[0]?.busy === 0)),
    );
    // A restart that timed out waiting for a reader is due again after the next checkpoint.
    if (restarted) this.restartCount++;
  }

  /** Waits for a running checkpoint, then closes the connection. */
  async close(): Promise<void> {
    await this.running;
    await new Promise<void>((resolve, reject) => this.connection.close((err) => (err ? reject(err) : resolve())));
  }
}
