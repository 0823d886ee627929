import * as E from 'fp-ts/lib/Either.js';
import type { CheckpointSigner } from '../../application/ports/checkpoint-signer.js';
import type { Clock } from '../../application/ports/clock.js';
import type { WitnessState } from '../../application/ports/witness-state.js';
import { cosignedMessage, cosignerKeyId, formatCosignatureLine } from '../../domain/log/cosignature.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import { formatSignedNote } from '../../domain/log/signed-note.js';
import type { VerifierKey } from '../../domain/log/verifier-key.js';
import { checkAgainstCosigned, logsByOrigin, openAddCheckpoint, type WitnessFailure } from '../../domain/log/witness-checks.js';
import type { SignatureVerifier } from '../../domain/protocol/crypto.js';
import { bytesToHex, utf8 } from '../../domain/protocol/encoding.js';

export interface Cosigned {
  readonly origin: string;
  readonly size: number;
  /** The response body: the witness's cosignature line. */
  readonly lines: string;
}

/**
 * A witness's add-checkpoint (c2sp.org/tlog-witness), as `witness serve` runs it: the domain's
 * checks (the log's signature, then the old size and the consistency proof against the latest
 * cosigned checkpoint), then a compare-and-set of that latest checkpoint to the new one, so
 * checking the old size and recording the new one are one atomic step and the witness never
 * cosigns two histories, whatever runs at the same time; only then a cosignature/v1 over it.
 * The cosigner is the key named `signer.keyName`; its key id has the cosignature type (0x04).
 */
export class WitnessService {
  private readonly logs: ReadonlyMap<string, readonly VerifierKey[]>;
  private readonly keyId: string;
  private readonly origins: ReadonlyMap<string, string>;

  constructor(
    private readonly sha: Sha256,
    private readonly ed25519: SignatureVerifier,
    private readonly signer: CheckpointSigner,
    private readonly state: WitnessState,
    private readonly clock: Clock,
    logKeys: readonly VerifierKey[],
  ) {
    this.logs = logsByOrigin(logKeys);
    this.origins = new Map([...this.logs.keys()].map((origin) => [bytesToHex(sha.digest(utf8(origin))), origin]));
    this.keyId = cosignerKeyId(sha, signer.keyName, signer.publicKey);
  }

  async addCheckpoint(body: string): Promise<E.Either<WitnessFailure, Cosigned>> {
    const request = openAddCheckpoint(this.ed25519, this.logs, body);
    if (E.isLeft(request)) return request;
    const { origin, size, rootHash } = request.right.checkpoint;
    const latest = await this.state.latest(origin);
    const checked = checkAgainstCosigned(this.sha, request.right, latest);
    if (E.isLeft(checked)) return checked;
    // Signed before it is recorded, so the record holds the note monitors are served; it leaves
    // this process only once the record is made.
    const nowMs = this.clock.nowMs();
    const timestamp = Math.floor(nowMs / 1000);
    const signature = await this.signer.sign(cosignedMessage(request.right.text, timestamp));
    const lines = formatCosignatureLine({ name: this.signer.keyName, keyId: this.keyId, timestamp, signature });
    const note = formatSignedNote({ text: request.right.text, signatures: request.right.logSignatures }) + lines;
    if (!(await this.state.advance(origin, latest, { size, rootHash, note }, nowMs))) {
      // Another request moved the log after this one read it: it was checked against a stale size.
      return E.left({ _tag: 'SizeConflict', size: (await this.state.latest(origin))?.size ?? 0 });
    }
    return E.right({ origin, size, lines });
  }

  /**
   * tlog-witness "Monitor Retrieval Mechanism": the latest checkpoint cosigned for the log whose
   * origin hashes (SHA-256, lowercase hex) to `originHash`, with the log's signatures and the
   * witness's cosignature; null for an unknown log or one never cosigned.
   */
  async latestCheckpoint(originHash: string): Promise<string | null> {
    const origin = this.origins.get(originHash);
    return origin === undefined ? null : this.state.latestNote(origin);
  }
}
