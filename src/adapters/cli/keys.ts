import { KEY_PRESETS, SCOPES } from '../../domain/identity/key-grant.js';
import { CliError, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { grantBody, keyTable, stateLine, type KeyItem, type KeyState } from './key-options.js';
import { callService, loadSession, readSolanaKeypair, serviceUrl, sessionPath, signInWithKeypair, type ServiceSession } from './service-session.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry keys create <name> [--preset <preset> | --scope <scope>...] [--robot <id>...]
                                 [--expires <time>] [--json]
       proof-registry keys list [--json]
       proof-registry keys disable <key_id> [--json]
       proof-registry keys enable <key_id> [--json]
       proof-registry keys rename <key_id> <new name> [--json]
       proof-registry keys delete <key_id>

Manages the API keys of the wallet signed in with \`proof-registry login\` (or, with
--keypair, of that wallet, signing in for this one command). A new key is printed once:
the service keeps only its hash. A key holds only what it is created with: its scopes, the
robots it acts for and its expiry never change (create another key for another grant).
A disabled key is refused until it is enabled again; a deleted one for good.

Options of create:
  --preset <preset>  what the key may do, by name: robot (${KEY_PRESETS.robot.join(', ')}),
                     auditor (${KEY_PRESETS.auditor.join(', ')}),
                     or full (every scope, those of later versions too; the default)
  --scope <scope>    what the key may do, scope by scope (repeat it, or a comma list):
                     ${SCOPES.slice(0, 5).join(', ')},
                     ${SCOPES.slice(5).join(', ')}
  --robot <id>       the robots the key acts for: it submits proofs and reports health only
                     for them (repeat it, or a comma list; default: any robot of the wallet)
  --expires <time>   when the key stops working: RFC 3339 (2027-01-01T00:00:00Z) or a
                     duration from now (90m, 12h, 30d); default: never

Options:
  --json             print the service's JSON answer instead of text (delete prints text only)
  --keypair <file>   sign in with this Solana keypair file instead of using the saved session
  --url <service>    with --keypair: the service (default: PROOF_REGISTRY_URL, or http://127.0.0.1:8080)
  --session <file>   the saved session to use (default: as login)
  -h, --help         show this help
`;

const OPTIONS = {
  json: { type: 'boolean' },
  keypair: { type: 'string' },
  url: { type: 'string' },
  session: { type: 'string' },
  preset: { type: 'string' },
  scope: { type: 'string', multiple: true },
  robot: { type: 'string', multiple: true },
  expires: { type: 'string' },
} as const;

/** Each subcommand and what follows it on the command line. */
const ARGUMENTS = {
  create: ['<name>'],
  list: [],
  disable: ['<key_id>'],
  enable: ['<key_id>'],
  rename: ['<key_id>', '<new name>'],
  delete: ['<key_id>'],
} as const;
type Action = keyof typeof ARGUMENTS;
const ACTIONS = Object.keys(ARGUMENTS) as Action[];
const isAction = (text: string | undefined): text is Action => text !== undefined && Object.hasOwn(ARGUMENTS, text);

export function createKeysCommand(env: Env): Command {
  return {
    summary: "create, list, disable, enable, rename or delete the signed-in wallet's API keys",
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: Infinity, name: `subcommand (${ACTIONS.join(', ')})` });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const [action, ...rest] = positionals;
      if (!isAction(action)) throw new CliError(`unknown keys subcommand ${JSON.stringify(action)} (${ACTIONS.join(', ')})`);
      const wanted = ARGUMENTS[action];
      if (rest.length !== wanted.length) {
        const extra = rest.length > wanted.length && action === 'rename' ? ' (quote a name that holds spaces)' : '';
        throw new CliError(`keys ${action} takes ${wanted.length === 0 ? 'no argument' : wanted.join(' ')}${extra} (see --help)`);
      }
      const grantFlag = (['preset', 'scope', 'robot', 'expires'] as const).find((f) => values[f] !== undefined);
      if (action !== 'create' && grantFlag) throw new CliError(`--${grantFlag} is for keys create: a key's grant never changes (see --help)`);
      // Checked before signing in: a mistyped scope or preset must cost no request and make no key.
      const grant = action === 'create' ? grantBody(values, Date.now()) : {};

      const s: ServiceSession = values.keypair
        ? await signInWithKeypair(serviceUrl(values.url, env), await readSolanaKeypair(values.keypair, io.cwd))
        : await loadSession(sessionPath(values.session, env, io.cwd));
      const as = { token: s.access_token, wallet: s.wallet };
      const [arg, newName] = rest as [string, string | undefined];
      const keyRoute = () => `/v1/keys/${encodeURIComponent(arg)}`;
      const print = (text: string, json: unknown) => io.stdout.write(values.json ? JSON.stringify(json) + '\n' : text);

      switch (action) {
        case 'create': {
          const { body } = await callService<KeyState & { key: string }>(s.url, 'POST', '/v1/keys', { ...as, body: { name: arg, ...grant } });
          print(
            `Created API key ${body.key_id} ("${body.name}"): ${stateLine(body)}. The key, shown this once:\n\n  ${body.key}\n\n` +
              `Send it as "Authorization: Bearer <key>" with "X-Wallet-Address: ${s.wallet}".\n`,
            body,
          );
          break;
        }
        case 'list': {
          const items: KeyItem[] = [];
          let cursor: string | null = null;
          do {
            const page: { body: { items: KeyItem[]; next_cursor: string | null } } = await callService(
              s.url,
              'GET',
              `/v1/keys?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
              as,
            );
            items.push(...page.body.items);
            cursor = page.body.next_cursor;
          } while (cursor);
          print(keyTable(items), items);
          break;
        }
        case 'disable':
        case 'enable':
        case 'rename': {
          const change = action === 'rename' ? { name: newName } : { enabled: action === 'enable' };
          const { body } = await callService<KeyState>(s.url, 'PATCH', keyRoute(), { ...as, body: change });
          print(`${VERBS[action]} API key ${body.key_id} ("${body.name}"): ${stateLine(body)}.\n`, body);
          break;
        }
        case 'delete':
          await callService(s.url, 'DELETE', keyRoute(), as);
          io.stdout.write(`Deleted API key ${arg}; requests made with it are refused from now on.\n`);
          break;
      }
      return EXIT_OK;
    },
  };
}

const VERBS = { disable: 'Disabled', enable: 'Enabled', rename: 'Renamed' } as const;

export const keysCommand: Command = createKeysCommand(process.env);
