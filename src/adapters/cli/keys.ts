import { CliError, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { callService, loadSession, readSolanaKeypair, serviceUrl, sessionPath, signInWithKeypair, type ServiceSession } from './service-session.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry keys create <name> [--json]
       proof-registry keys list [--json]
       proof-registry keys delete <key_id>

Manages the API keys of the wallet signed in with \`proof-registry login\` (or, with
--keypair, of that wallet, signing in for this one command). A new key is printed once:
the service keeps only its hash.

Options:
  --json             print JSON instead of text (create, list)
  --keypair <file>   sign in with this Solana keypair file instead of using the saved session
  --url <service>    with --keypair: the service (default: PROOF_REGISTRY_URL, or http://127.0.0.1:8080)
  --session <file>   the saved session to use (default: as login)
  -h, --help         show this help
`;

interface KeyItem {
  key_id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  request_count: number;
  error_count: number;
  error_rate: number;
}

export function createKeysCommand(env: Env): Command {
  return {
    summary: "create, list or delete the signed-in wallet's API keys",
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(
        args,
        { json: { type: 'boolean' }, keypair: { type: 'string' }, url: { type: 'string' }, session: { type: 'string' } },
        { min: 1, max: 2, name: 'subcommand (create, list or delete)' },
      );
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const [action, arg] = positionals;
      if (action !== 'create' && action !== 'list' && action !== 'delete') throw new CliError(`unknown keys subcommand ${JSON.stringify(action)} (create, list or delete)`);
      if ((action === 'create' || action === 'delete') && arg === undefined) throw new CliError(`keys ${action} takes ${action === 'create' ? 'a name' : 'a key id'} (see --help)`);
      if (action === 'list' && arg !== undefined) throw new CliError('keys list takes no argument (see --help)');
      const s: ServiceSession = values.keypair
        ? await signInWithKeypair(serviceUrl(values.url, env), await readSolanaKeypair(values.keypair, io.cwd))
        : await loadSession(sessionPath(values.session, env, io.cwd));
      const as = { token: s.access_token, wallet: s.wallet };

      if (action === 'create') {
        const { body } = await callService<{ key_id: string; key: string; name: string; prefix: string; created_at: string }>(s.url, 'POST', '/v1/keys', { ...as, body: { name: arg } });
        io.stdout.write(
          values.json
            ? JSON.stringify(body) + '\n'
            : `Created API key ${body.key_id} ("${body.name}"). The key, shown this once:\n\n  ${body.key}\n\nSend it as "Authorization: Bearer <key>" with "X-Wallet-Address: ${s.wallet}".\n`,
        );
      } else if (action === 'list') {
        const items: KeyItem[] = [];
        let cursor: string | null = null;
        do {
          const page: { body: { items: KeyItem[]; next_cursor: string | null } } = await callService(s.url, 'GET', `/v1/keys?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, as);
          items.push(...page.body.items);
          cursor = page.body.next_cursor;
        } while (cursor);
        io.stdout.write(values.json ? JSON.stringify(items) + '\n' : table(items));
      } else {
        await callService(s.url, 'DELETE', `/v1/keys/${encodeURIComponent(arg!)}`, as);
        io.stdout.write(`Deleted API key ${arg}; requests made with it are refused from now on.\n`);
      }
      return EXIT_OK;
    },
  };
}

function table(items: readonly KeyItem[]): string {
  if (items.length === 0) return 'No API keys. Create one with: proof-registry keys create <name>\n';
  const rows = [
    ['KEY ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'REQUESTS', 'ERRORS'],
    ...items.map((k) => [k.key_id, k.name, k.prefix, k.created_at, k.last_used_at ?? 'never', String(k.request_count), String(k.error_count)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

export const keysCommand: Command = createKeysCommand(process.env);
