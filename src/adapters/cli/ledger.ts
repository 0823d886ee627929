import { LOCAL_ACCESS_MINT } from '../../config.js';
import { formatTokenAmount, parseTokenAmount } from '../../domain/identity/token-amount.js';
import { isWalletAddress } from '../../domain/identity/wallet-address.js';
import { openCommandDatabase } from './cli-database.js';
import { CliError, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';

const USAGE = `Usage: proof-registry ledger set <wallet> <amount> [--mint <address>]
       proof-registry ledger get <wallet> [--mint <address>] [--json]
       proof-registry ledger list [--mint <address>] [--json]

The local ledger: access-token balances the service uses when SOLANA_RPC_URL is unset.
Amounts are whole tokens (a decimal such as 50000 or 12.5). A running service sees a
change within BALANCE_CACHE_TTL_S seconds.

Options:
  --mint <address>  the token (default: ACCESS_TOKEN_MINT, or the local placeholder mint)
  --json            print JSON instead of text (get, list)
  -h, --help        show this help

Environment:
  DATABASE_URL      the service's database (default sqlite:./data/registry.sqlite);
                    it is migrated first if needed
`;

type Env = Readonly<Record<string, string | undefined>>;

/** `ledger` with its environment passed in, so tests can point it at their own database. */
export function createLedgerCommand(env: Env): Command {
  return {
    summary: 'set, get or list access-token balances of the local ledger',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(
        args,
        { mint: { type: 'string' }, json: { type: 'boolean' } },
        { min: 1, max: 3, name: 'subcommand (set, get or list)' },
      );
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const [action, wallet, amountText] = positionals;
      const mint = values.mint ?? (env['ACCESS_TOKEN_MINT'] || LOCAL_ACCESS_MINT);
      if (!isWalletAddress(mint)) throw new CliError(`--mint must be a base58 Solana address (got ${JSON.stringify(mint)})`);
      const expect = (count: number) => {
        if (positionals.length !== count) throw new CliError(`ledger ${action} takes ${count - 1} argument${count === 2 ? '' : 's'} (see --help)`);
      };
      const checkWallet = (w: string | undefined): string => {
        if (w === undefined || !isWalletAddress(w)) throw new CliError(`wallet must be a base58 Solana address (got ${JSON.stringify(w)})`);
        return w;
      };
      if (action !== 'set' && action !== 'get' && action !== 'list')
        throw new CliError(`unknown ledger subcommand ${JSON.stringify(action)} (set, get or list)`);
      if (action === 'set') expect(3);
      if (action === 'get') expect(2);
      if (action === 'list') expect(1);
      const amount = action === 'set' ? parseTokenAmount(amountText ?? '') : null;
      if (action === 'set' && amount === null)
        throw new CliError(`amount must be a non-negative decimal such as 50000 or 12.5 (got ${JSON.stringify(amountText)})`);

      const db = await openCommandDatabase(env, io);
      // Loaded here, not at start-up, so the other commands never load the database drivers.
      const { migrateLatest } = await import('../sql/index.js');
      const { KnexLedgerBalance } = await import('../sql/knex-ledger-balance.js');
      try {
        await migrateLatest(db).catch((err: unknown) => {
          throw new CliError(`cannot open the database: ${err instanceof Error ? err.message : String(err)}`);
        });
        const ledger = new KnexLedgerBalance(db);
        if (action === 'set') {
          const owner = checkWallet(wallet);
          await ledger.set(owner, mint, amount!, Date.now());
          io.stdout.write(`${owner} ${formatTokenAmount(amount!)}\n`);
        } else if (action === 'get') {
          const owner = checkWallet(wallet);
          const entry = await ledger.get(owner, mint);
          const text = entry ? formatTokenAmount(entry.amount) : '0';
          io.stdout.write(
            values.json
              ? JSON.stringify({ wallet: owner, mint, amount: text, updated_at: entry ? new Date(entry.updatedAtMs).toISOString() : null }) + '\n'
              : `${owner} ${text}\n`,
          );
        } else {
          const entries = await ledger.list(mint);
          const rows = entries.map((e) => ({ wallet: e.owner, mint, amount: formatTokenAmount(e.amount), updated_at: new Date(e.updatedAtMs).toISOString() }));
          io.stdout.write(values.json ? JSON.stringify(rows) + '\n' : rows.map((r) => `${r.wallet} ${r.amount} ${r.updated_at}\n`).join(''));
        }
        return EXIT_OK;
      } finally {
        await db.close();
      }
    },
  };
}

export const ledgerCommand: Command = createLedgerCommand(process.env);
