import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import bs58 from 'bs58';

/**
 * A wire-level fake of a Solana JSON-RPC node: a real HTTP server that answers
 * `getTokenAccountsByOwner` with `jsonParsed` data in exactly the shape a Solana validator
 * returns (field names, nesting, numbers as numbers and amounts as strings), so the real
 * @solana/web3.js client and its response validation run against it. Failure modes cover
 * what real endpoints do: HTTP errors, JSON-RPC errors, slowness, garbage and lies.
 */
export interface TokenAccount {
  readonly owner: string;
  readonly mint: string;
  /** Raw amount in base units, as the chain stores it. */
  readonly amount: bigint;
  readonly decimals: number;
  readonly program?: 'spl-token' | 'spl-token-2022';
  readonly state?: 'initialized' | 'frozen';
}

export type RpcMode =
  | 'ok'
  | 'http_500'
  | 'http_429'
  | 'rpc_error'
  | 'garbage'
  | 'slow'
  /** Answers with accounts of another owner, as a buggy or malicious endpoint might. */
  | 'wrong_owner'
  /** Answers with an amount that is not a base-unit integer string. */
  | 'bad_amount';

export interface RpcRequestSeen {
  readonly method: string;
  readonly params: unknown;
}

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

export class FakeSolanaRpc {
  readonly accounts: TokenAccount[] = [];
  readonly requests: RpcRequestSeen[] = [];
  mode: RpcMode = 'ok';
  /** How long a `slow` answer takes. */
  slowMs = 5_000;
  private slot = 341_197_053;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeSolanaRpc> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new FakeSolanaRpc(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => void fake.handle(req, res));
    return fake;
  }

  add(account: TokenAccount): void {
    this.accounts.push(account);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: { id?: unknown; method?: unknown; params?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof body;
    } catch {
      return json(res, 200, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    }
    this.requests.push({ method: String(body.method), params: body.params });
    const id = body.id ?? null;
    switch (this.mode) {
      case 'http_500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
        return;
      case 'http_429':
        res.writeHead(429, { 'content-type': 'text/plain' }).end('Too Many Requests');
        return;
      case 'rpc_error':
        return json(res, 200, { jsonrpc: '2.0', error: { code: -32005, message: 'Node is behind by 1234 slots', data: { numSlotsBehind: 1234 } }, id });
      case 'garbage':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html>502 Bad Gateway</html>');
        return;
      case 'slow':
        await new Promise((resolve) => setTimeout(resolve, this.slowMs));
        break;
      default:
        break;
    }
    if (body.method !== 'getTokenAccountsByOwner') {
      return json(res, 200, { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id });
    }
    const [owner, filter, config] = (Array.isArray(body.params) ? body.params : []) as [unknown, { mint?: unknown }?, { encoding?: unknown }?];
    if (!isAddress(owner)) return invalidParam(res, id, 'Invalid param: WrongSize');
    if (!filter || !isAddress(filter.mint)) return invalidParam(res, id, 'Invalid param: could not find mint');
    if (config?.encoding !== 'jsonParsed') return invalidParam(res, id, 'this test fake answers jsonParsed only');
    const mint = filter.mint;
    const value = this.accounts
      .filter((a) => a.owner === owner && a.mint === mint)
      .map((a, i) => this.accountJson(this.mode === 'wrong_owner' ? { ...a, owner: a.mint } : a, i));
    if (this.mode === 'wrong_owner' && value.length === 0) value.push(this.accountJson({ owner: mint, mint, amount: 1n, decimals: 0 }, 0));
    if (this.mode === 'bad_amount') for (const v of value) (v.account.data.parsed.info.tokenAmount as { amount: unknown }).amount = '12.5';
    return json(res, 200, { jsonrpc: '2.0', result: { context: { apiVersion: '2.0.15', slot: this.slot++ }, value }, id });
  }

  private accountJson(a: TokenAccount, index: number) {
    const program = a.program ?? 'spl-token';
    const ui = Number(a.amount) / 10 ** a.decimals;
    const uiAmountString = formatUnits(a.amount, a.decimals);
    return {
      pubkey: bs58.encode(Uint8Array.from({ length: 32 }, (_, i) => (i + index * 17 + a.owner.charCodeAt(0)) & 0xff)),
      account: {
        data: {
          program,
          parsed: {
            info: {
              isNative: false,
              mint: a.mint,
              owner: a.owner,
              state: a.state ?? 'initialized',
              tokenAmount: { amount: a.amount.toString(), decimals: a.decimals, uiAmount: ui, uiAmountString },
            },
            type: 'account',
          },
          space: program === 'spl-token' ? 165 : 182,
        },
        executable: false,
        lamports: 2_039_280,
        owner: program === 'spl-token' ? TOKEN_PROGRAM : TOKEN_2022_PROGRAM,
        // u64::MAX, as validators report rent-exempt accounts; written as a bare number below.
        rentEpoch: U64_MAX,
        space: program === 'spl-token' ? 165 : 182,
      },
    };
  }
}

function isAddress(u: unknown): u is string {
  if (typeof u !== 'string') return false;
  try {
    return bs58.decode(u).length === 32;
  } catch {
    return false;
  }
}

function formatUnits(raw: bigint, decimals: number): string {
  if (decimals === 0) return raw.toString();
  const digits = raw.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  return fraction ? `${digits.slice(0, -decimals)}.${fraction}` : digits.slice(0, -decimals);
}

const U64_MAX = '__u64_max__';

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body).replaceAll(`"${U64_MAX}"`, '18446744073709551615');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(text);
}

function invalidParam(res: ServerResponse, id: unknown, message: string): void {
  json(res, 200, { jsonrpc: '2.0', error: { code: -32602, message }, id });
}
