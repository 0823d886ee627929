/**
 * How an accepted proof moves its wallet's statistics (migrations/007): the totals, its task's
 * and robot's counts, and its UTC day's count; and the counts by the hour of its created_at
 * (migrations/011): its hour's count, and its robot's presence in that hour and day; all in
 * the statement that stores the proof.
 * Written once per database: the SQLite writer runs these per inserted row in its trigger
 * (`new` is the row), the PostgreSQL writer per batch over its `inserted` rows.
 */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Start of the UTC hour or day holding `ms` (an SQL expression): `%` truncates on both databases, so negative dates need the second `%`. */
const floorSql = (ms: string, unit: number) => `${ms} - ((${ms} % ${unit}) + ${unit}) % ${unit}`;

/** Statements of the SQLite trigger on `proofs`, one per inserted proof. */
export const WALLET_STATS_TRIGGER_STATEMENTS = `insert into main.wallet_stats (wallet, proofs_submitted, scored_proofs, score_sum, score_min, score_max, first_activity_ms, last_activity_ms)
    values (new.wallet, 1, new.score is not null, coalesce(new.score, 0), new.score, new.score, new.received_at_ms, new.received_at_ms)
    on conflict (wallet) do update set
      proofs_submitted = proofs_submitted + 1,
      scored_proofs = scored_proofs + excluded.scored_proofs,
      score_sum = score_sum + excluded.score_sum,
      score_min = coalesce(min(score_min, excluded.score_min), score_min, excluded.score_min),
      score_max = coalesce(max(score_max, excluded.score_max), score_max, excluded.score_max),
      first_activity_ms = coalesce(min(first_activity_ms, excluded.first_activity_ms), excluded.first_activity_ms),
      last_activity_ms = coalesce(max(last_activity_ms, excluded.last_activity_ms), excluded.last_activity_ms);
  insert into main.wallet_task_counts (wallet, task_id, proof_count) values (new.wallet, new.task_id, 1)
    on conflict (wallet, task_id) do update set proof_count = proof_count + 1;
  insert into main.wallet_robot_counts (wallet, robot_id, proof_count) select new.wallet, new.robot_id, 1 where new.robot_id is not null
    on conflict (wallet, robot_id) do update set proof_count = proof_count + 1;
  insert into main.wallet_activity_daily (wallet, day_ms, proof_count) values (new.wallet, new.received_at_ms - new.received_at_ms % ${DAY_MS}, 1)
    on conflict (wallet, day_ms) do update set proof_count = proof_count + 1;
  insert into main.wallet_proof_hours (wallet, hour_ms, proof_count) values (new.wallet, ${floorSql('new.created_at_ms', HOUR_MS)}, 1)
    on conflict (wallet, hour_ms) do update set proof_count = proof_count + 1;
  insert into main.wallet_robot_hours (wallet, hour_ms, robot_id) select new.wallet, ${floorSql('new.created_at_ms', HOUR_MS)}, new.robot_id where new.robot_id is not null
    on conflict do nothing;
  insert into main.wallet_robot_days (wallet, day_ms, robot_id) select new.wallet, ${floorSql('new.created_at_ms', DAY_MS)}, new.robot_id where new.robot_id is not null
    on conflict do nothing;`;

/**
 * Common table expressions of the PostgreSQL batch statement, over its `inserted` rows (which
 * return wallet, task_id, robot_id, score, received_at_ms and created_at_ms). Rows are upserted in key order,
 * like the devices, so concurrent statements take their locks in one order.
 */
export const walletStatsCtes = `counted_wallets as (
  insert into wallet_stats (wallet, proofs_submitted, scored_proofs, score_sum, score_min, score_max, first_activity_ms, last_activity_ms)
  select wallet, count(*), count(score), coalesce(sum(score), 0), min(score), max(score), min(received_at_ms), max(received_at_ms)
  from inserted group by wallet order by wallet
  on conflict (wallet) do update set
    proofs_submitted = wallet_stats.proofs_submitted + excluded.proofs_submitted,
    scored_proofs = wallet_stats.scored_proofs + excluded.scored_proofs,
    score_sum = wallet_stats.score_sum + excluded.score_sum,
    score_min = least(wallet_stats.score_min, excluded.score_min),
    score_max = greatest(wallet_stats.score_max, excluded.score_max),
    first_activity_ms = least(wallet_stats.first_activity_ms, excluded.first_activity_ms),
    last_activity_ms = greatest(wallet_stats.last_activity_ms, excluded.last_activity_ms)
), counted_tasks as (
  insert into wallet_task_counts (wallet, task_id, proof_count)
  select wallet, task_id, count(*) from inserted group by wallet, task_id order by wallet, task_id collate "C"
  on conflict (wallet, task_id) do update set proof_count = wallet_task_counts.proof_count + excluded.proof_count
), counted_robots as (
  insert into wallet_robot_counts (wallet, robot_id, proof_count)
  select wallet, robot_id, count(*) from inserted where robot_id is not null group by wallet, robot_id order by wallet, robot_id collate "C"
  on conflict (wallet, robot_id) do update set proof_count = wallet_robot_counts.proof_count + excluded.proof_count
), counted_days as (
  insert into wallet_activity_daily (wallet, day_ms, proof_count)
  select wallet, received_at_ms - received_at_ms % ${DAY_MS}, count(*) from inserted group by 1, 2 order by 1, 2
  on conflict (wallet, day_ms) do update set proof_count = wallet_activity_daily.proof_count + excluded.proof_count
), counted_hours as (
  insert into wallet_proof_hours (wallet, hour_ms, proof_count)
  select wallet, ${floorSql('created_at_ms', HOUR_MS)}, count(*) from inserted group by 1, 2 order by 1, 2
  on conflict (wallet, hour_ms) do update set proof_count = wallet_proof_hours.proof_count + excluded.proof_count
), robot_hours as (
  insert into wallet_robot_hours (wallet, hour_ms, robot_id)
  select distinct wallet, ${floorSql('created_at_ms', HOUR_MS)}, robot_id from inserted where robot_id is not null order by 1, 2, 3
  on conflict do nothing
), robot_days as (
  insert into wallet_robot_days (wallet, day_ms, robot_id)
  select distinct wallet, ${floorSql('created_at_ms', DAY_MS)}, robot_id from inserted where robot_id is not null order by 1, 2, 3
  on conflict do nothing
)`;
