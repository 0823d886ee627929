import { OwnerLookupLimit } from '../../src/application/identity/owner-lookup-limit.js';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import type { Logger } from 'pino';
import { pino } from 'pino';
import { CreateApiKey } from '../../src/application/identity/create-api-key.js';
import { DeleteApiKey } from '../../src/application/identity/delete-api-key.js';
import { ListApiKeys } from '../../src/application/identity/list-api-keys.js';
import { BalanceCache } from '../../src/application/identity/balance-cache.js';
import { CheckAccess } from '../../src/application/identity/check-access.js';
import { CompleteSignIn } from '../../src/application/identity/complete-sign-in.js';
import { KeyUsageRecorder } from '../../src/application/identity/key-usage-recorder.js';
import { StartSignIn } from '../../src/application/identity/start-sign-in.js';
import { TokenGate } from '../../src/application/identity/token-gate.js';
import { WalletAuthenticator } from '../../src/application/identity/wallet-authenticator.js';
import type { Clock } from '../../src/application/ports/clock.js';
import type { BalanceLookupResult, GateDecision, IdentityMetrics } from '../../src/application/ports/identity-metrics.js';
import { NodeEd25519 } from '../../src/adapters/crypto/node-ed25519.js';
import { NodeIdentityCrypto } from '../../src/adapters/crypto/node-identity-crypto.js';
import { JsonwebtokenTokenIssuer } from '../../src/adapters/jwt/jsonwebtoken-token-issuer.js';
import { MemoryKeyStore } from '../../src/adapters/memory/memory-key-store.js';
import { MemoryNonceStore } from '../../src/adapters/memory/memory-nonce-store.js';
import { MemoryTokenBalance } from '../../src/adapters/memory/memory-token-balance.js';
import { parseTokenAmount } from '../../src/domain/identity/token-amount.js';

/** Test wallets: real Ed25519 key pairs from fixed seeds, as a wallet app would hold them. */
export interface TestWallet {
  readonly address: string;
  readonly secretKey: Uint8Array;
  /** base64 of the wallet's signature over the UTF-8 text, as a client sends it. */
  sign(text: string): string;
}

export function aWallet(n: number): TestWallet {
  const pair = nacl.sign.keyPair.fromSeed(Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n * 31 + 1) & 0xff));
  return {
    address: bs58.encode(pair.publicKey),
    secretKey: pair.secretKey,
    sign: (text) => Buffer.from(nacl.sign.detached(new TextEncoder().encode(text), pair.secretKey)).toString('base64'),
  };
}

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private ms = Date.parse('2026-11-20T10:00:00Z')) {}
  nowMs(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Records what identity reported, for assertions. */
export class RecordingMetrics implements IdentityMetrics {
  readonly failures: string[] = [];
  readonly decisions: GateDecision[] = [];
  readonly lookups: BalanceLookupResult[] = [];
  authFailure(reason: string): void {
    this.failures.push(reason);
  }
  gateDecision(decision: GateDecision): void {
    this.decisions.push(decision);
  }
  balanceLookup(result: BalanceLookupResult): void {
    this.lookups.push(result);
  }
}

export const MINT = 'So11111111111111111111111111111111111111112';
export const OTHER_MINT = 'EPjFWdd5AufqSSqeM2qofjEy8b7r4hPh8iUBXNNL4nQf';
export const ORIGIN = 'https://registry.example.com';
export const JWT_SECRET = 'test-secret-test-secret-test-secret-0123';

export const amount = (text: string) => parseTokenAmount(text)!;

/** Every identity use case on in-memory adapters: the application as the HTTP layer sees it. */
export function memoryIdentity(options: { clock?: ManualClock; minimum?: number; ttlS?: number; graceS?: number } = {}) {
  const clock = options.clock ?? new ManualClock();
  const metrics = new RecordingMetrics();
  const crypto = new NodeIdentityCrypto();
  const keys = new MemoryKeyStore();
  const nonces = new MemoryNonceStore();
  const balances = new MemoryTokenBalance();
  const cache = new BalanceCache(balances, clock, { ttlS: options.ttlS ?? 60, graceS: options.graceS ?? 600 }, metrics);
  const gate = new TokenGate(cache, { mint: MINT, minimum: options.minimum ?? 50_000 }, metrics);
  const tokens = new JsonwebtokenTokenIssuer({ secret: JWT_SECRET, ttlS: 3600, issuer: ORIGIN, audience: 'proof-registry' }, clock);
  const usage = new KeyUsageRecorder(keys);
  const fund = (wallet: TestWallet | string, amountText: string) =>
    balances.set(typeof wallet === 'string' ? wallet : wallet.address, MINT, amount(amountText), clock.nowMs());
  return {
    clock,
    metrics,
    crypto,
    keys,
    nonces,
    balances,
    cache,
    gate,
    tokens,
    usage,
    fund,
    startSignIn: new StartSignIn(nonces, crypto, clock, { origin: ORIGIN, chainId: 'mainnet' }),
    completeSignIn: new CompleteSignIn(nonces, new NodeEd25519(), gate, tokens, clock, metrics),
    createKey: new CreateApiKey(keys, crypto, crypto, clock),
    listKeys: new ListApiKeys(keys, usage),
    deleteKey: new DeleteApiKey(keys, clock),
    checkAccess: new CheckAccess(cache, new OwnerLookupLimit(clock, 100)),
    authenticator: new WalletAuthenticator(keys, crypto, tokens, gate, metrics, clock),
  };
}

export type MemoryIdentity = ReturnType<typeof memoryIdentity>;

export const silentLogger: Logger = pino({ level: 'silent' });
