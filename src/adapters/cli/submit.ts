import { CliError, EXIT_INVALID, EXIT_OK, isPlainObject, parseCommandArgs, parseJson, readSource, type CliIo, type Command } from './command.js';
import { callService, loadSession, serviceUrl, sessionPath } from './service-session.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry submit <envelope.json|-> [--key <api key>] [--wallet <address>] [--url <service>] [--json]

Submits a signed envelope (bare or wrapped as {"envelope": ...}) to a running service with
an API key, as a device does. The service verifies it before storing it; a proof it already
has is answered with the same proof id.
Exit code: 0 stored (or already stored), 1 refused as invalid, 2 usage, input or service error.

Options:
  --key <api key>     the API key (default: PROOF_REGISTRY_API_KEY)
  --wallet <address>  the key's wallet (default: PROOF_REGISTRY_WALLET, or the wallet of the
                      session proof-registry login saved)
  --url <service>     the service (default: PROOF_REGISTRY_URL, or the saved session's, or
                      http://127.0.0.1:8080)
  --json              print the service's answer as JSON
  -h, --help          show this help
`;

export function createSubmitCommand(env: Env): Command {
  return {
    summary: 'submit a signed envelope to a running service with an API key',
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(
        args,
        { key: { type: 'string' }, wallet: { type: 'string' }, url: { type: 'string' }, json: { type: 'boolean' } },
        { min: 1, max: 1, name: '<envelope.json> (or - for stdin)' },
      );
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const key = values.key || env['PROOF_REGISTRY_API_KEY'];
      if (!key) throw new CliError('--key is required (or set PROOF_REGISTRY_API_KEY); create one with: proof-registry keys create <name>');
      const saved = values.wallet || env['PROOF_REGISTRY_WALLET'] ? null : await loadSession(sessionPath(undefined, env, io.cwd)).catch(() => null);
      const wallet = values.wallet || env['PROOF_REGISTRY_WALLET'] || saved?.wallet;
      if (!wallet) throw new CliError("--wallet is required (or set PROOF_REGISTRY_WALLET, or sign in with proof-registry login): the key's wallet address");
      const url = values.url || env['PROOF_REGISTRY_URL'] ? serviceUrl(values.url, env) : (saved?.url ?? serviceUrl(undefined, env));

      const source = await readSource(positionals[0]!, io);
      const value = parseJson(source.text, source.name);
      const envelope = isPlainObject(value) && Object.keys(value).length === 1 && 'envelope' in value ? value['envelope'] : value;
      try {
        const { body } = await callService<{ proof_id: string; duplicate: boolean; received_at: string }>(url, 'POST', '/v1/proofs', {
          token: key,
          wallet,
          body: { envelope },
        });
        io.stdout.write(
          values.json
            ? JSON.stringify(body) + '\n'
            : `${body.duplicate ? 'Already stored' : 'Stored'}: proof ${body.proof_id} (received ${body.received_at}).\n`,
        );
        return EXIT_OK;
      } catch (error) {
        // A proof the service refuses is the envelope's problem, not the command's: exit 1, as verify.
        if (error instanceof CliError && / 422 /.test(error.message)) {
          io.stderr.write(`proof-registry: refused: ${error.message.replace(/^POST \/v1\/proofs: 422 /, '')}\n`);
          return EXIT_INVALID;
        }
        throw error;
      }
    },
  };
}

export const submitCommand: Command = createSubmitCommand(process.env);
