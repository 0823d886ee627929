import { proofLogged } from '../../domain/events/announcements.js';
import type { NewEvent, ProofAcceptedData } from '../../domain/events/event.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { Clock } from '../ports/clock.js';
import type { EventLog } from '../ports/event-log.js';

export const LOGGED_CURSOR = 'proof.logged';

/**
 * Announces `proof.logged` for each accepted proof once a signed checkpoint covers it: the
 * first checkpoint published after its `proof.accepted`, which is the one it is proved
 * against. It reads the `proof.accepted` events in order from its cursor and stops at the
 * first one the latest checkpoint does not cover yet (the next checkpoint will); the events
 * and the cursor's move are one transaction, so each proof is announced once per wallet.
 */
export class AnnounceLoggedProofs {
  constructor(
    private readonly events: EventLog,
    private readonly checkpoints: CheckpointStore,
    private readonly clock: Clock,
    private readonly pageSize = 2000,
  ) {}

  /** How many it announced. */
  async execute(): Promise<number> {
    const checkpoint = await this.checkpoints.latest();
    if (!checkpoint) return 0;
    const treeSize = checkpoint.size;
    let announced = 0;
    for (;;) {
      const from = await this.events.cursor(LOGGED_CURSOR);
      const page = await this.events.allEvents(from, this.pageSize);
      const logged: NewEvent[] = [];
      let to = from;
      let covered = true;
      for (const event of page) {
        if (event.type === 'proof.accepted' && event.logIndex !== null && event.logIndex !== undefined) {
          if (event.logIndex >= treeSize) {
            covered = false;
            break;
          }
          const proofId = (event.data as ProofAcceptedData).proof_id;
          logged.push(proofLogged(event.wallet, { proof_id: proofId, log_index: event.logIndex, tree_size: treeSize }, this.clock.nowMs()));
        }
        to = event.id;
      }
      if (to === from) return announced;
      if (!(await this.events.appendMovingCursor(logged, { name: LOGGED_CURSOR, from, to }))) return announced;
      announced += logged.length;
      if (!covered || page.length < this.pageSize) return announced;
    }
  }
}
