import { CliError, EXIT_OK, parseCommandArgs, requireOption, type CliIo, type Command } from './command.js';
import { readSolanaKeypair, saveSession, serviceUrl, sessionPath, signInWithKeypair } from './service-session.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry login --keypair <wallet.json> [--url <service>] [--session <file>]

Signs in to a running service with a wallet key, as the dashboard does: asks for a
Sign-In-With-Solana challenge, signs it with the key, and keeps the dashboard token for
\`proof-registry keys\`. The key never leaves this machine; only the signature is sent.

Options:
  --keypair <file>   a Solana CLI keypair file (JSON array of 64 numbers, as solana-keygen writes)
  --url <service>    the service (default: PROOF_REGISTRY_URL, or ${'http://127.0.0.1:8080'})
  --session <file>   where to keep the token (default: PROOF_REGISTRY_SESSION, or
                     ~/.config/proof-registry/session.json); written readable by you only
  --print-token      also print the token (for scripts that call the API themselves)
  -h, --help         show this help
`;

export function createLoginCommand(env: Env): Command {
  return {
    summary: 'sign in to a running service with a wallet keypair (for keys)',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, help } = parseCommandArgs(
        args,
        { keypair: { type: 'string' }, url: { type: 'string' }, session: { type: 'string' }, 'print-token': { type: 'boolean' } },
        { min: 0, max: 0 },
      );
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const keypair = await readSolanaKeypair(requireOption(values.keypair, 'keypair'), io.cwd);
      const url = serviceUrl(values.url, env);
      if (!/^https?:\/\//.test(url)) throw new CliError(`--url must start with http:// or https:// (got ${JSON.stringify(url)})`);
      const session = await signInWithKeypair(url, keypair);
      const file = sessionPath(values.session, env, io.cwd);
      await saveSession(file, session);
      io.stdout.write(`Signed in to ${url} as ${session.wallet} until ${session.expires_at}.\nSession kept in ${file}.\n`);
      if (values['print-token']) io.stdout.write(`${session.access_token}\n`);
      return EXIT_OK;
    },
  };
}

export const loginCommand: Command = createLoginCommand(process.env);
