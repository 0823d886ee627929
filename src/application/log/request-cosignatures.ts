import * as E from 'fp-ts/lib/Either.js';
import { formatCosignatureLine, openCosignedNote } from '../../domain/log/cosignature.js';
import { describeNoteFailure } from '../../domain/log/log-failures.js';
import type { PolicyWitness, WitnessPolicy } from '../../domain/log/verify-bundle.js';
import type { SignatureVerifier } from '../../domain/protocol/crypto.js';
import { encodeBase64 } from '../../domain/protocol/encoding.js';
import type { CheckpointStore, PublishedCheckpoint } from '../ports/checkpoint-store.js';
import type { Clock } from '../ports/clock.js';
import type { LogCosignatures, WitnessClient } from '../ports/log-cosignatures.js';
import type { ProveConsistency } from './prove-consistency.js';

/** Counts the requests to each witness and what came of them (the metrics). */
export interface CosignatureObserver {
  requested(witness: string): void;
  obtained(witness: string): void;
  failed(witness: string): void;
}

/** What one witness answered for one checkpoint: its cosignature line, or why there is none. */
export type CosignatureOutcome =
  | { readonly witness: string; readonly _tag: 'Cosigned'; readonly size: number; readonly line: string }
  | { readonly witness: string; readonly _tag: 'Failed'; readonly error: string };

const SIZE_BODY = /^(0|[1-9]\d{0,15})\n?$/;

/**
 * Asks the witness policy's witnesses to cosign the log's latest checkpoint (c2sp.org/tlog-witness
 * add-checkpoint), from the size each last cosigned (0 when unknown; on a 409, once more from the
 * size the witness states), and keeps the cosignatures that verify with the policy's key of
 * that witness. Runs on the lease holder, off the signing path: a witness that is down, slow or
 * refusing only records its error.
 */
export class RequestCosignatures {
  private lastSize = -1;
  private lastAtMs = Number.NEGATIVE_INFINITY;
  private running: Promise<readonly CosignatureOutcome[]> | null = null;
  private again = false;

  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly consistency: ProveConsistency,
    private readonly cosignatures: LogCosignatures,
    private readonly client: WitnessClient,
    private readonly verifier: SignatureVerifier,
    private readonly policy: WitnessPolicy,
    private readonly clock: Clock,
    private readonly observer: CosignatureObserver,
    /** How often the witnesses are asked again when the log has not grown, so cosignatures stay fresh. */
    private readonly refreshMs: number,
  ) {}

  /**
   * Asks the witnesses if the log grew since the last request or `refreshMs` passed; one
   * request round at a time (a call meanwhile joins it, and another round follows). Never rejects.
   */
  async whenDue(): Promise<readonly CosignatureOutcome[]> {
    if (this.policy.witnesses.length === 0) return [];
    if (this.running) {
      // The log may have grown since that round read it: one more round follows it.
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let outcomes: readonly CosignatureOutcome[];
      do {
        this.again = false;
        outcomes = await this.dueRound();
      } while (this.again);
      return outcomes;
    })().finally(() => (this.running = null));
    return this.running;
  }

  private async dueRound(): Promise<readonly CosignatureOutcome[]> {
    const latest = await this.checkpoints.latest().catch(() => null);
    if (!latest) return [];
    const now = this.clock.nowMs();
    if (latest.size <= this.lastSize && now - this.lastAtMs < this.refreshMs) return [];
    this.lastSize = latest.size;
    this.lastAtMs = now;
    return this.ask(latest);
  }

  /** Asks every witness now for the latest checkpoint. */
  async execute(): Promise<readonly CosignatureOutcome[]> {
    const latest = await this.checkpoints.latest();
    return latest ? this.ask(latest) : [];
  }

  private async ask(checkpoint: PublishedCheckpoint): Promise<readonly CosignatureOutcome[]> {
    const known = new Map((await this.cosignatures.witnesses().catch(() => [])).map((w) => [w.name, w.lastCosignedSize]));
    return Promise.all(
      this.policy.witnesses.map(async (witness) => {
        const name = witness.key.name;
        this.observer.requested(name);
        let outcome: CosignatureOutcome;
        try {
          outcome = await this.askOne(witness, checkpoint, known.get(name) ?? 0);
        } catch (err) {
          outcome = { witness: name, _tag: 'Failed', error: err instanceof Error ? err.message : String(err) };
        }
        try {
          if (outcome._tag === 'Cosigned') await this.cosignatures.record(name, outcome.size, outcome.line, this.clock.nowMs());
          else await this.cosignatures.recordError(name, outcome.error, this.clock.nowMs());
        } catch (err) {
          outcome = { witness: name, _tag: 'Failed', error: `storing the answer failed: ${err instanceof Error ? err.message : String(err)}` };
        }
        if (outcome._tag === 'Cosigned') this.observer.obtained(name);
        else this.observer.failed(name);
        return outcome;
      }),
    );
  }

  private async askOne(witness: PolicyWitness, checkpoint: PublishedCheckpoint, knownSize: number): Promise<CosignatureOutcome> {
    const name = witness.key.name;
    const fail = (error: string): CosignatureOutcome => ({ witness: name, _tag: 'Failed', error });
    let oldSize = knownSize > checkpoint.size ? 0 : knownSize;
    for (let attempt = 0; ; attempt++) {
      const body = await this.requestBody(oldSize, checkpoint);
      if (body === null) return fail(`no consistency proof from size ${oldSize} to ${checkpoint.size}`);
      const reply = await this.client.addCheckpoint(witness.url, body);
      if (reply.status === 200) {
        const opened = openCosignedNote(this.verifier, checkpoint.note + reply.body, witness.key);
        if (E.isLeft(opened)) {
          const problem = opened.left._tag === 'NotACosignature' ? 'not a cosignature/v1 signature' : describeNoteFailure(opened.left);
          return fail(`the cosignature does not verify with the policy's key: ${problem}`);
        }
        const line = opened.right.map((c) => formatCosignatureLine(c)).join('');
        return { witness: name, _tag: 'Cosigned', size: checkpoint.size, line };
      }
      if (reply.status === 409 && attempt === 0) {
        const m = SIZE_BODY.exec(reply.body);
        const size = m ? Number(m[1]) : NaN;
        if (!(size >= 0 && size <= checkpoint.size)) return fail(`409 with a size the log cannot prove from: ${JSON.stringify(reply.body.slice(0, 40))}`);
        oldSize = size;
        continue;
      }
      return fail(`HTTP ${reply.status}: ${reply.body.trim().slice(0, 200)}`);
    }
  }

  /** `old <size>\n`, the consistency proof's hashes in base64 a line each, an empty line, then the log's signed note. */
  private async requestBody(oldSize: number, checkpoint: PublishedCheckpoint): Promise<string | null> {
    let hashes: readonly Uint8Array[] = [];
    if (oldSize > 0 && oldSize < checkpoint.size) {
      const proof = await this.consistency.execute({ first: oldSize, second: checkpoint.size });
      if (E.isLeft(proof)) return null;
      hashes = proof.right.hashes;
    }
    return `old ${oldSize}\n${hashes.map((h) => `${encodeBase64(h)}\n`).join('')}\n${checkpoint.note}`;
  }
}
