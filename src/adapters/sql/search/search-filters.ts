import type { Knex } from 'knex';
import type { ProofQuery } from '../../../application/ports/proof-store.js';
import type { ReadHow, SearchDialect } from './search-dialect.js';

/** The filters of a search as they are applied: a query may leave out its text. */
export type Filters = Omit<ProofQuery, 'text'> & { readonly text?: string };

/** The wallet's proofs that pass the query's filters, as a query to add columns, order and limits to. */
export function filtered(
  knex: Knex,
  dialect: SearchDialect,
  key: number,
  q: Filters,
  from: Knex.QueryBuilder = knex('proofs'),
  how: ReadHow = {},
): Knex.QueryBuilder {
  const query = from.where('proofs.wallet_id', key);
  if (q.taskId !== undefined) query.where('task_id', q.taskId);
  if (q.robotId !== undefined) query.where('robot_id', q.robotId);
  if (q.runId !== undefined) query.where('run_id', q.runId);
  if (q.signerPublicKeyB64 !== undefined) query.where('signer_public_key_b64', q.signerPublicKeyB64);
  if (q.createdAfterMs !== undefined) query.where('created_at_ms', '>=', q.createdAfterMs);
  if (q.createdBeforeMs !== undefined) query.where('created_at_ms', '<', q.createdBeforeMs);
  const inOrder = q.topic !== undefined && how.inOrder ? dialect.topicInOrder(q.topic) : undefined;
  if (inOrder) {
    // Tested proof by proof in the list's order.
    query.whereRaw(...inOrder);
  } else if (q.topic !== undefined) {
    query.whereExists(
      knex('proof_topics')
        .select(knex.raw('1'))
        .whereRaw('proof_topics.proof_pk = proofs.id and proof_topics.wallet_id = proofs.wallet_id and proof_topics.created_at_ms = proofs.created_at_ms')
        .where('proof_topics.topic', q.topic),
    );
  }
  if (q.text !== undefined) query.whereRaw(...dialect.textCondition(q.text, how));
  return query;
}
