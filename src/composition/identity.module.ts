import { ContainerModule } from 'inversify';
import { NodeEd25519 } from '../adapters/crypto/node-ed25519.js';
import { NodeIdentityCrypto } from '../adapters/crypto/node-identity-crypto.js';
import { authProblem } from '../adapters/http/auth-problems.js';
import { identityRoutes } from '../adapters/http/routes/identity-routes.js';
import { keyRoutes } from '../adapters/http/routes/key-routes.js';
import { PromIdentityMetrics } from '../adapters/metrics/prom-identity-metrics.js';
import { KnexKeyStore } from '../adapters/sql/knex-key-store.js';
import { KnexNonceStore } from '../adapters/sql/knex-nonce-store.js';
import { KnexRevokedTokens } from '../adapters/sql/knex-revoked-tokens.js';
import { KnexKeyUsageHistory } from '../adapters/sql/knex-key-usage-history.js';
import { KeyStoreUsageTotals } from '../application/fleet/key-store-usage-totals.js';
import { BalanceCache } from '../application/identity/balance-cache.js';
import { CheckAccess } from '../application/identity/check-access.js';
import { CompleteSignIn } from '../application/identity/complete-sign-in.js';
import { CreateApiKey } from '../application/identity/create-api-key.js';
import { DeleteApiKey } from '../application/identity/delete-api-key.js';
import { GetKeyUsage } from '../application/identity/get-key-usage.js';
import { KeyDayTally, KeyEndpointTally } from '../application/identity/key-day-tally.js';
import { KeyLookupCache } from '../application/identity/key-lookup-cache.js';
import { KeyUsageRecorder } from '../application/identity/key-usage-recorder.js';
import { ListApiKeys } from '../application/identity/list-api-keys.js';
import { UpdateApiKey } from '../application/identity/update-api-key.js';
import { SignOut } from '../application/identity/sign-out.js';
import { StartSignIn } from '../application/identity/start-sign-in.js';
import { TokenGate } from '../application/identity/token-gate.js';
import { WalletAuthenticator } from '../application/identity/wallet-authenticator.js';
import type { Clock } from '../application/ports/clock.js';
import { chainIdFor } from '../domain/identity/sign-in-message.js';
import { CORE } from './core.tokens.js';
import { balanceSource, ownerLookups, rateLimiter, tokenIssuer } from './identity-sources.js';
import { IDENTITY } from './identity.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const module = new ContainerModule(({ bind }) => {
  bind(IDENTITY.Settings).toConstantValue({ usageFlushIntervalMs: 1000 });
  provide(bind, IDENTITY.Metrics, [CORE.Metrics], (metrics) => new PromIdentityMetrics(metrics.registry));
  provide(bind, IDENTITY.Crypto, [], () => new NodeIdentityCrypto());
  provide(
    bind,
    IDENTITY.KeyStore,
    [CORE.Database, CORE.Clock, CORE.Config],
    (database, clock, config) => new KeyLookupCache(new KnexKeyStore(database), clock, { ttlMs: config.apiKeyCacheTtlS * 1000 }),
  );
  provide(bind, IDENTITY.NonceStore, [CORE.Database], (database) => new KnexNonceStore(database));
  provide(bind, IDENTITY.RevokedTokens, [CORE.Database], (database) => new KnexRevokedTokens(database));
  provide(bind, IDENTITY.SignOut, [IDENTITY.RevokedTokens, CORE.Clock], (revoked, clock) => new SignOut(revoked, clock));

  // Adapters chosen by the configuration: identity-sources.ts.
  provide(bind, IDENTITY.TokenBalance, [CORE.Config, CORE.Database, IDENTITY.Metrics, CORE.Logger], balanceSource);
  provide(bind, IDENTITY.TokenIssuer, [CORE.Config, CORE.Database, CORE.Clock, CORE.Logger], tokenIssuer);
  provide(bind, IDENTITY.RateLimiter, [CORE.Config, IDENTITY.Settings, CORE.Metrics, CORE.Logger, CORE.Lifecycle], rateLimiter);

  // On the local ledger a refusal is not reused: reading the table again is cheap, and a
  // newcomer who funds the wallet right after being refused gets in at once.
  provide(
    bind,
    IDENTITY.BalanceCache,
    [IDENTITY.TokenBalance, CORE.Clock, CORE.Config, IDENTITY.Metrics],
    (source, clock, config, metrics) =>
      new BalanceCache(
        source,
        clock,
        { ttlS: config.balanceCacheTtlS, graceS: config.balanceGraceS, ...(config.solanaRpcUrl === null ? { reuseFrom: config.accessMinBalance } : {}) },
        metrics,
      ),
  );
  provide(
    bind,
    IDENTITY.TokenGate,
    [IDENTITY.BalanceCache, CORE.Config, IDENTITY.Metrics],
    (cache, config, metrics) => new TokenGate(cache, { mint: config.accessTokenMint, minimum: config.accessMinBalance }, metrics),
  );

  // API-key usage is counted per response, as totals per key and by UTC day, and written in
  // batches: on a timer, on demand and on stop.
  provide(bind, IDENTITY.KeyUsageHistory, [CORE.Database], (database) => new KnexKeyUsageHistory(database));
  provide(bind, IDENTITY.KeyDayTally, [IDENTITY.KeyUsageHistory], (history) => new KeyDayTally(history));
  provide(bind, IDENTITY.KeyEndpointTally, [IDENTITY.KeyUsageHistory], (history) => new KeyEndpointTally(history));
  provide(
    bind,
    IDENTITY.UsageRecorder,
    [IDENTITY.KeyStore, IDENTITY.KeyDayTally, IDENTITY.KeyEndpointTally, IDENTITY.Settings, CORE.Lifecycle],
    (keys, days, endpoints, settings, lifecycle) => {
      const usage = new KeyUsageRecorder(keys);
      lifecycle.flushEvery(
        settings.usageFlushIntervalMs,
        () => Promise.all([usage.flush(), days.flush(), endpoints.flush()]),
        'writing API key usage failed; will retry',
      );
      return usage;
    },
  );
  provide(bind, IDENTITY.KeyUsageTotals, [IDENTITY.UsageRecorder, IDENTITY.KeyStore], (usage, keys) => ({
    totals: async (wallet: string) => {
      await usage.flush();
      return new KeyStoreUsageTotals(keys).totals(wallet);
    },
  }));

  provide(
    bind,
    IDENTITY.Authenticator,
    [
      IDENTITY.KeyStore,
      IDENTITY.Crypto,
      IDENTITY.TokenIssuer,
      IDENTITY.TokenGate,
      IDENTITY.Metrics,
      IDENTITY.UsageRecorder,
      IDENTITY.KeyDayTally,
      IDENTITY.KeyEndpointTally,
      CORE.Clock,
      IDENTITY.RevokedTokens,
    ],
    (keys, crypto, tokens, gate, metrics, usage, days, endpoints, clock, revoked) =>
      // A valid key refused by a later check counts as an error of that key.
      new WalletAuthenticator(keys, crypto, tokens, gate, metrics, clock, {
        onKeyRefused: (keyId, failure, endpoint) => countUse(usage, days, endpoints, clock)(keyId, authProblem(failure).status, endpoint ?? null),
        revoked,
      }),
  );
  provide(
    bind,
    IDENTITY.Access,
    [IDENTITY.Authenticator, IDENTITY.RateLimiter, IDENTITY.UsageRecorder, IDENTITY.KeyDayTally, IDENTITY.KeyEndpointTally, CORE.Clock],
    (authenticator, limiter, usage, days, endpoints, clock) => {
      const count = countUse(usage, days, endpoints, clock);
      return {
        authenticator,
        rateLimiter: limiter,
        // Every response to an API-key request counts in that key's usage figures.
        onAuthenticatedResponse: (principal, status, endpoint) => {
          if (principal.keyId !== null) count(principal.keyId, status, endpoint);
        },
      };
    },
  );

  provide(
    bind,
    IDENTITY.StartSignIn,
    [IDENTITY.NonceStore, IDENTITY.Crypto, CORE.Clock, CORE.Config],
    (nonces, crypto, clock, config) => new StartSignIn(nonces, crypto, clock, { origin: config.publicOrigin, chainId: chainIdFor(config.solanaRpcUrl) }),
  );
  provide(
    bind,
    IDENTITY.CompleteSignIn,
    [IDENTITY.NonceStore, IDENTITY.TokenGate, IDENTITY.TokenIssuer, CORE.Clock, IDENTITY.Metrics],
    (nonces, gate, tokens, clock, metrics) => new CompleteSignIn(nonces, new NodeEd25519(), gate, tokens, clock, metrics),
  );
  provide(
    bind,
    IDENTITY.CreateApiKey,
    [IDENTITY.KeyStore, IDENTITY.Crypto, CORE.Clock],
    (keys, crypto, clock) => new CreateApiKey(keys, crypto, crypto, clock),
  );
  provide(bind, IDENTITY.ListApiKeys, [IDENTITY.KeyStore, IDENTITY.UsageRecorder], (keys, usage) => new ListApiKeys(keys, usage));
  provide(bind, IDENTITY.DeleteApiKey, [IDENTITY.KeyStore, CORE.Clock], (keys, clock) => new DeleteApiKey(keys, clock));
  provide(
    bind,
    IDENTITY.GetKeyUsage,
    [IDENTITY.KeyStore, IDENTITY.KeyUsageHistory, IDENTITY.KeyDayTally, IDENTITY.KeyEndpointTally, CORE.Clock],
    (keys, history, days, endpoints, clock) => new GetKeyUsage(keys, history, { flush: () => Promise.all([days.flush(), endpoints.flush()]) }, clock),
  );
  provide(bind, IDENTITY.UpdateApiKey, [IDENTITY.KeyStore, CORE.Clock], (keys, clock) => new UpdateApiKey(keys, clock));
  // Access checks name any owner: their answers are cached apart from the gate's, so they can
  // never evict an admitted wallet, and each wallet may name only so many owners a minute.
  provide(
    bind,
    IDENTITY.AccessCheckCache,
    [IDENTITY.TokenBalance, CORE.Clock, CORE.Config, IDENTITY.Metrics],
    (source, clock, config, metrics) =>
      new BalanceCache(source, clock, { ttlS: config.balanceCacheTtlS, graceS: config.balanceGraceS, maxEntries: config.accessCheckCacheEntries }, metrics),
  );
  provide(bind, IDENTITY.OwnerLookups, [CORE.Config, IDENTITY.Settings, CORE.Clock, CORE.Lifecycle], ownerLookups);
  provide(bind, IDENTITY.CheckAccess, [IDENTITY.AccessCheckCache, IDENTITY.OwnerLookups], (cache, owners) => new CheckAccess(cache, owners));

  provide(
    bind,
    IDENTITY.Routes,
    [
      IDENTITY.StartSignIn,
      IDENTITY.CompleteSignIn,
      IDENTITY.CreateApiKey,
      IDENTITY.ListApiKeys,
      IDENTITY.UpdateApiKey,
      IDENTITY.DeleteApiKey,
      IDENTITY.GetKeyUsage,
      IDENTITY.CheckAccess,
      IDENTITY.SignOut,
      CORE.Clock,
    ],
    (startSignIn, completeSignIn, createKey, listKeys, updateKey, deleteKey, keyUsage, checkAccess, signOut, clock) => [
      ...identityRoutes({ startSignIn, completeSignIn, checkAccess, signOut }),
      ...keyRoutes({ createKey, listKeys, updateKey, deleteKey, keyUsage, clock }),
    ],
  );
});

/** Counts one response to a request made with an API key: in its totals and in its day. */
const countUse =
  (usage: KeyUsageRecorder, days: KeyDayTally, endpoints: KeyEndpointTally, clock: Clock) =>
  (keyId: string, status: number, endpoint: string | null): void => {
    const now = clock.nowMs();
    usage.record(keyId, status, now);
    days.record(keyId, status, now);
    if (endpoint !== null) endpoints.record(keyId, endpoint, status, now);
  };

/** Wallet sign-in, API keys, the token gate, rate limits and API-key usage. */
export const identitySlice: Slice = { name: 'identity', module, routes: IDENTITY.Routes };
