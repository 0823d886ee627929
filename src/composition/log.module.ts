import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import { Counter } from 'prom-client';
import { loadLogSigningKey } from '../adapters/crypto/log-key-file.js';
import { NodeEd25519 } from '../adapters/crypto/node-ed25519.js';
import { NodeSha256 } from '../adapters/crypto/node-sha256.js';
import { SeedCheckpointSigner } from '../adapters/crypto/seed-checkpoint-signer.js';
import { bundleRoutes } from '../adapters/http/routes/bundle-routes.js';
import { logRoutes } from '../adapters/http/routes/log-routes.js';
import { KnexCheckpointStore } from '../adapters/sql/knex-checkpoint-store.js';
import { KnexLogCosignatures } from '../adapters/sql/knex-log-cosignatures.js';
import { KnexLogLease } from '../adapters/sql/knex-log-lease.js';
import { KnexLogTileStore } from '../adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../adapters/sql/knex-sequenced-leaves.js';
import { FetchWitnessClient } from '../adapters/witnesses/fetch-witness-client.js';
import { AdvanceLog } from '../application/log/advance-log.js';
import { CosignedCheckpoints } from '../application/log/cosigned-checkpoints.js';
import { GetCheckpoint } from '../application/log/get-checkpoint.js';
import { GetLogKey } from '../application/log/get-log-key.js';
import { GetProofBundle } from '../application/log/get-proof-bundle.js';
import { IntegrateLeaves } from '../application/log/integrate-leaves.js';
import { ListWitnesses } from '../application/log/list-witnesses.js';
import { LogTree } from '../application/log/log-tree.js';
import { MaintainLog } from '../application/log/maintain-log.js';
import { ProveConsistency } from '../application/log/prove-consistency.js';
import { ProveInclusion } from '../application/log/prove-inclusion.js';
import { PublishCheckpoint } from '../application/log/publish-checkpoint.js';
import { ReadEntryBundle } from '../application/log/read-entry-bundle.js';
import { ReadTile } from '../application/log/read-tile.js';
import { RequestCosignatures } from '../application/log/request-cosignatures.js';
import { parseWitnessPolicy } from '../domain/log/verify-bundle.js';
import { CORE } from './core.tokens.js';
import { LOG } from './log.tokens.js';
import { PROOFS } from './proofs.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const module = new ContainerModule(({ bind }) => {
  provide(bind, LOG.Sha256, [], () => new NodeSha256());
  provide(bind, LOG.Leaves, [CORE.Database], (database) => new KnexSequencedLeaves(database));
  provide(bind, LOG.Tiles, [CORE.Database], (database) => new KnexLogTileStore(database));
  provide(bind, LOG.Checkpoints, [CORE.Database], (database) => new KnexCheckpointStore(database));
  provide(bind, LOG.Lease, [CORE.Database], (database) => new KnexLogLease(database));
  provide(bind, LOG.Signer, [CORE.Config, CORE.Logger], async (config, logger) => {
    const ed25519 = new NodeEd25519();
    const key = await loadLogSigningKey(ed25519, config.logSigningKeyFile, config.dataDir);
    if (key.created) logger.info({ file: key.file }, 'generated the transparency log signing key; back it up with the database');
    return new SeedCheckpointSigner(ed25519, key.seed, config.logOrigin);
  });
  provide(bind, LOG.Tree, [LOG.Tiles, LOG.Sha256], (tiles, sha) => new LogTree(tiles, sha));
  provide(bind, LOG.Cosignatures, [CORE.Database], (database) => new KnexLogCosignatures(database));
  provide(bind, LOG.WitnessPolicy, [CORE.Config, LOG.Sha256], async (config, sha) => {
    const file = config.logWitnessPolicyFile;
    if (file === null) return { witnesses: [], quorum: 0 };
    const text = await readFile(path.resolve(file), 'utf8').catch((err: unknown) => {
      throw new Error(`LOG_WITNESS_POLICY_FILE ${file}: ${err instanceof Error ? err.message : String(err)}`);
    });
    const policy = parseWitnessPolicy(sha, text);
    if (E.isLeft(policy)) throw new Error(`LOG_WITNESS_POLICY_FILE ${file}: ${policy.left}`);
    return policy.right;
  });
  provide(
    bind,
    LOG.RequestCosignatures,
    [LOG.Checkpoints, LOG.Tree, LOG.Cosignatures, LOG.WitnessPolicy, CORE.Clock, CORE.Config, CORE.Metrics],
    (checkpoints, tree, cosignatures, policy, clock, config, metrics) => {
      const counter = (name: string, help: string) => new Counter({ name, help, labelNames: ['witness'], registers: [metrics.registry] });
      const requested = counter('log_cosignatures_requested_total', 'add-checkpoint requests sent to each witness.');
      const obtained = counter('log_cosignatures_obtained_total', 'Cosignatures a witness returned that verified with its key in the witness policy.');
      const failed = counter(
        'log_cosignatures_failed_total',
        'add-checkpoint requests that brought no valid cosignature (unreachable, slow, refused, or a bad signature).',
      );
      return new RequestCosignatures(
        checkpoints,
        new ProveConsistency(checkpoints, tree),
        cosignatures,
        new FetchWitnessClient(config.logWitnessTimeoutMs),
        new NodeEd25519(),
        policy,
        clock,
        {
          requested: (witness) => requested.inc({ witness }),
          obtained: (witness) => obtained.inc({ witness }),
          failed: (witness) => failed.inc({ witness }),
        },
        config.logWitnessIntervalS * 1000,
      );
    },
  );
  provide(bind, LOG.ListWitnesses, [LOG.WitnessPolicy, LOG.Cosignatures], (policy, cosignatures) => new ListWitnesses(policy, cosignatures));

  // Every instance ticks every half interval; the one holding the lease integrates and signs.
  // A proof acknowledged just after a tick is covered by the next one's checkpoint, well within
  // LOG_CHECKPOINT_INTERVAL_MS. The holder is named for the machine and the data directory, so
  // an instance restarted after kill -9 takes its own lease back at once instead of waiting.
  provide(
    bind,
    LOG.Maintenance,
    [
      LOG.Tiles,
      LOG.Leaves,
      LOG.Checkpoints,
      LOG.Lease,
      LOG.Signer,
      LOG.Tree,
      LOG.Sha256,
      LOG.RequestCosignatures,
      CORE.Clock,
      CORE.Config,
      CORE.Logger,
      CORE.Lifecycle,
      CORE.Database,
    ],
    (tiles, leaves, checkpoints, lease, signer, tree, sha, cosign, clock, config, logger, lifecycle, database) => {
      // With commits synced only at checkpoints, a checkpoint of the WAL syncs it first: what
      // was integrated is then on disk before it is signed.
      const unsynced = database.dialect === 'sqlite' && database.synchronous === 'normal';
      const makeDurable = async () => void (unsynced ? await database.knex.raw('PRAGMA wal_checkpoint(PASSIVE)') : undefined);
      const advance = new AdvanceLog(
        new IntegrateLeaves(tiles, leaves, sha),
        new PublishCheckpoint(tiles, tree, checkpoints, signer, sha, clock, config.logOrigin),
        16,
        makeDurable,
      );
      const holder = `${hostname()}:${path.resolve(config.dataDir)}`;
      const interval = config.logCheckpointIntervalMs;
      // The witnesses are asked after each advance (when the log grew, or LOG_WITNESS_INTERVAL_S
      // passed), off the signing path: a witness that is down or slow only records its error.
      let cosigning: Promise<unknown> = Promise.resolve();
      const askWitnesses = () => {
        cosigning = cosign.whenDue().catch((err: unknown) => logger.warn({ err }, 'asking the witnesses to cosign failed; will retry'));
      };
      const maintain = new MaintainLog(lease, advance, clock, holder, Math.max(3 * interval, 2000), askWitnesses);
      let stopped = false;
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      const tick = async () => {
        const outcome = await maintain.tick();
        if (outcome._tag !== 'Advanced' || E.isRight(outcome.result)) return;
        const failure = outcome.result.left;
        // A race is another integrator having moved the tree first: its work stands, the next tick goes on.
        if (failure._tag === 'IntegrationRaced') logger.debug({ failure }, 'the transparency log was integrated by another instance');
        else logger.error({ failure }, 'the transparency log did not advance: the stored tree is not the one published, and nothing is signed');
      };
      const next = (delayMs: number) => {
        if (stopped) return;
        timer = setTimeout(() => {
          running = tick()
            .catch((err: unknown) => logger.error({ err }, 'transparency log upkeep failed; will retry'))
            .finally(() => next(Math.max(1, Math.floor(interval / 2))));
        }, delayMs);
        timer.unref();
      };
      next(0);
      lifecycle.onStop(async () => {
        stopped = true;
        clearTimeout(timer);
        await running;
        await cosigning;
        await maintain.release().catch(() => undefined);
      });
      return maintain;
    },
  );

  // What is served carries the witnesses' cosignatures after the log's signature.
  provide(
    bind,
    LOG.GetCheckpoint,
    [LOG.Checkpoints, LOG.Cosignatures],
    (checkpoints, cosignatures) => new GetCheckpoint(new CosignedCheckpoints(checkpoints, cosignatures)),
  );
  provide(bind, LOG.GetKey, [LOG.Signer, LOG.Sha256, CORE.Config], (signer, sha, config) => new GetLogKey(signer, sha, config.logOrigin));
  provide(
    bind,
    LOG.ProveInclusion,
    [LOG.Leaves, LOG.Checkpoints, LOG.Cosignatures, LOG.Tree, LOG.Sha256],
    (leaves, checkpoints, cosignatures, tree, sha) => new ProveInclusion(leaves, new CosignedCheckpoints(checkpoints, cosignatures), tree, sha),
  );
  provide(bind, LOG.ProveConsistency, [LOG.Checkpoints, LOG.Tree], (checkpoints, tree) => new ProveConsistency(checkpoints, tree));
  provide(bind, LOG.ReadTile, [LOG.Checkpoints, LOG.Tree], (checkpoints, tree) => new ReadTile(checkpoints, tree));
  provide(bind, LOG.ReadEntryBundle, [LOG.Checkpoints, LOG.Leaves], (checkpoints, leaves) => new ReadEntryBundle(checkpoints, leaves));
  provide(bind, LOG.GetProofBundle, [PROOFS.Store, LOG.ProveInclusion], (store, inclusion) => new GetProofBundle(store, inclusion));

  provide(
    bind,
    LOG.Routes,
    [
      LOG.Maintenance,
      LOG.GetCheckpoint,
      LOG.GetKey,
      LOG.ProveInclusion,
      LOG.ProveConsistency,
      LOG.ReadTile,
      LOG.ReadEntryBundle,
      LOG.GetProofBundle,
      LOG.ListWitnesses,
    ],
    (_maintenance, checkpoint, key, inclusion, consistency, tile, entries, bundle, witnesses) => [
      ...logRoutes({ checkpoint, key, inclusion, consistency, tile, entries, witnesses }),
      // The bundle is a proof's (its wallet's key, proofs:read) with the log's proof of it.
      ...bundleRoutes({ bundle }),
    ],
  );
});

/** The transparency log: sequencing happens in the proof writers; this slice integrates, signs and serves it. */
export const logSlice: Slice = { name: 'log', module, routes: LOG.Routes };
