import { ContainerModule } from 'inversify';
import { actoAccountRoutes, actoOperationRoutes } from '../adapters/http/acto/acto-account-routes.js';
import { actoFleetRoutes } from '../adapters/http/acto/acto-fleet-routes.js';
import { actoProofRoutes } from '../adapters/http/acto/acto-proof-routes.js';
import { openApiDocument } from '../adapters/http/openapi/openapi-document.js';
import type { AnyRoute } from '../adapters/http/route.js';
import { ACTO } from './acto.tokens.js';
import { CORE } from './core.tokens.js';
import { FLEET } from './fleet.tokens.js';
import { IDENTITY } from './identity.tokens.js';
import { PROOFS } from './proofs.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const module = new ContainerModule(({ bind }) => {
  provide(
    bind,
    ACTO.Routes,
    [
      PROOFS.SubmitProof,
      PROOFS.GetProof,
      PROOFS.SearchProofs,
      PROOFS.VerifyEnvelope,
      PROOFS.VerifyBatch,
      PROOFS.ScoreProof,
      PROOFS.MeasuredProtocol,
      FLEET.GetFleetOverview,
      FLEET.GetDevice,
      FLEET.RenameDevice,
      FLEET.ReportDeviceHealth,
      FLEET.GetDeviceHealth,
      FLEET.HideDevice,
      FLEET.OrderDevices,
      FLEET.ListGroups,
      FLEET.CreateGroup,
      FLEET.AssignDevices,
      FLEET.UnassignDevices,
      FLEET.DeleteGroup,
      FLEET.GetWalletStats,
      IDENTITY.CheckAccess,
      CORE.Metrics,
      CORE.Config,
      PROOFS.WalletStats,
    ],
    (
      submit,
      get,
      search,
      verify,
      verifyBatch,
      score,
      protocol,
      overview,
      getDevice,
      rename,
      reportHealth,
      deviceHealth,
      hideDevice,
      orderDevices,
      listGroups,
      createGroup,
      assign,
      unassign,
      deleteGroup,
      stats,
      checkAccess,
      metrics,
      config,
      walletStats,
    ) => {
      let document: unknown;
      const routes: AnyRoute[] = [
        ...actoOperationRoutes(() => (document ??= openApiDocument(routes, ACTO_INFO(config.publicOrigin)))),
        ...actoProofRoutes({
          submit,
          get,
          search,
          verify,
          verifyBatch,
          score,
          protocol,
          metrics,
          batchBodyLimitBytes: config.batchBodyLimitBytes,
          maxBatch: config.maxBatch,
        }),
        ...actoFleetRoutes({
          overview,
          getDevice,
          rename,
          reportHealth,
          deviceHealth,
          hideDevice,
          orderDevices,
          listGroups,
          createGroup,
          assign,
          unassign,
          deleteGroup,
          metrics,
          countTasks: (wallet) => walletStats.countTasks(wallet),
        }),
        ...actoAccountRoutes({ stats, checkAccess }),
      ];
      return routes;
    },
  );
});

const ACTO_INFO = (origin: string) => ({
  version: '1.0.0',
  serverUrl: origin,
  title: 'Proof Registry: ACTO personality',
  description:
    'The routes the ACTO Python SDK (actobotics 1.0.0) calls, with the shapes it reads: point ACTOClient at <origin>/acto. Same credentials (an API key everywhere, a dashboard JWT too), wallet binding, token gate, rate limits and data as the native API (/openapi.json).',
});

/**
 * The ACTO personality: a second driving adapter over the proofs, fleet, identity and
 * dashboard slices' use cases, served under /acto and described in /acto/openapi.json only.
 */
export const actoSlice: Slice = { name: 'acto', module, routes: ACTO.Routes, documentedApart: true };
