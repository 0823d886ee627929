import { Connection, PublicKey, type Commitment } from '@solana/web3.js';
import { BalanceSourceError, type BalanceSourceFailure, type TokenBalance } from '../../application/ports/token-balance.js';
import { addTokenAmounts, ZERO, type TokenAmount } from '../../domain/identity/token-amount.js';

export interface SolanaRpcObserver {
  /** One RPC call: its method, outcome (`ok` or the failure kind) and duration. */
  observe(method: string, outcome: 'ok' | BalanceSourceFailure, seconds: number): void;
}

export interface SolanaBalanceOptions {
  readonly rpcUrl: string;
  readonly timeoutMs: number;
  readonly commitment?: Commitment;
  readonly observer?: SolanaRpcObserver;
}

const TOKEN_PROGRAMS = new Set(['spl-token', 'spl-token-2022']);
const RAW_AMOUNT = /^\d{1,40}$/;

/**
 * Balances from a Solana JSON-RPC endpoint through @solana/web3.js 1.x: every token account
 * the owner holds for the mint (`getTokenAccountsByOwner`, jsonParsed), summed exactly in base
 * units. Each call has a hard timeout, 429s are not retried (the cache's grace covers an
 * outage), and every account is checked for the right owner, mint and a well-formed amount:
 * a response that does not add up is an error, never a zero.
 */
export class SolanaTokenBalance implements TokenBalance {
  private readonly connection: Connection;

  constructor(private readonly options: SolanaBalanceOptions) {
    const timeoutMs = options.timeoutMs;
    this.connection = new Connection(options.rpcUrl, {
      commitment: options.commitment ?? 'confirmed',
      disableRetryOnRateLimit: true,
      // Global fetch with a deadline; web3.js's own agent options do not apply to it.
      fetch: ((input: string, init: RequestInit) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as never,
    });
  }

  async balanceOf(owner: string, mint: string): Promise<TokenAmount> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const total = await this.fetchBalance(owner, mint);
      this.options.observer?.observe('getTokenAccountsByOwner', 'ok', seconds());
      return total;
    } catch (err) {
      const failure = err instanceof BalanceSourceError ? err : classify(err);
      this.options.observer?.observe('getTokenAccountsByOwner', failure.kind, seconds());
      throw failure;
    }
  }

  private async fetchBalance(owner: string, mint: string): Promise<TokenAmount> {
    const result = await this.connection.getParsedTokenAccountsByOwner(new PublicKey(owner), { mint: new PublicKey(mint) });
    let total: TokenAmount = ZERO;
    let decimals: number | null = null;
    for (const { account } of result.value) {
      const data = account.data as unknown;
      const parsed = field(data, 'parsed');
      const info = field(parsed, 'info');
      const tokenAmount = field(info, 'tokenAmount');
      const program = field(data, 'program');
      const raw = field(tokenAmount, 'amount');
      const dec = field(tokenAmount, 'decimals');
      if (
        typeof program !== 'string' ||
        !TOKEN_PROGRAMS.has(program) ||
        field(info, 'mint') !== mint ||
        field(info, 'owner') !== owner ||
        typeof raw !== 'string' ||
        !RAW_AMOUNT.test(raw) ||
        typeof dec !== 'number' ||
        !Number.isInteger(dec) ||
        dec < 0 ||
        dec > 255 ||
        (decimals !== null && dec !== decimals)
      ) {
        throw new BalanceSourceError('invalid_response', 'the RPC returned a token account that is not a well-formed account of this owner and mint');
      }
      decimals = dec;
      total = addTokenAmounts(total, { raw: BigInt(raw), decimals: dec });
    }
    return total;
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

/** Maps what web3.js and fetch throw to a failure kind, keeping the original as the cause. */
function classify(err: unknown): BalanceSourceError {
  const message = err instanceof Error ? err.message : String(err);
  const name = err instanceof Error ? err.name : '';
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const causeName = cause instanceof Error ? cause.name : '';
  let kind: BalanceSourceFailure;
  if (name === 'TimeoutError' || causeName === 'TimeoutError' || /timeout|aborted/i.test(message)) kind = 'timeout';
  else if (name === 'SolanaJSONRPCError') kind = 'rpc_error';
  else if (/^\d{3} /.test(message)) kind = 'http_error';
  else if (/fetch failed|ECONNREFUSED|ENOTFOUND|ECONNRESET|EAI_AGAIN/i.test(message + String(cause))) kind = 'unreachable';
  else kind = 'invalid_response';
  return new BalanceSourceError(kind, `Solana RPC: ${message}`, { cause: err });
}
