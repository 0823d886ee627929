import type { WitnessPolicy } from '../../domain/log/verify-bundle.js';
import type { LogCosignatures } from '../ports/log-cosignatures.js';

export interface WitnessView {
  readonly name: string;
  readonly url: string;
  readonly lastCosignedSize: number | null;
  readonly lastCosignedAtMs: number | null;
  readonly lastError: string | null;
}

/** The witness policy's witnesses, each with what the log knows of it, and the policy's quorum. */
export class ListWitnesses {
  constructor(
    private readonly policy: WitnessPolicy,
    private readonly cosignatures: LogCosignatures,
  ) {}

  async execute(): Promise<{ readonly quorum: number; readonly witnesses: readonly WitnessView[] }> {
    const records = new Map((await this.cosignatures.witnesses()).map((r) => [r.name, r]));
    return {
      quorum: this.policy.quorum,
      witnesses: this.policy.witnesses.map(({ key, url }) => {
        const r = records.get(key.name);
        return {
          name: key.name,
          url,
          lastCosignedSize: r?.lastCosignedSize ?? null,
          lastCosignedAtMs: r?.lastCosignedAtMs ?? null,
          lastError: r?.lastError ?? null,
        };
      }),
    };
  }
}
