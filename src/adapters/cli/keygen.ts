import { randomBytes } from 'node:crypto';
import { NodeEd25519 } from '../crypto/node-ed25519.js';
import { EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { keyFileOf, keyFileText, writeKeyFile } from './key-file.js';

const USAGE = `Usage: proof-registry keygen [--out <key.json>]

Creates a new Ed25519 device key in the ACTO SDK's key file format:
  { "public_key_b64": "<32-byte public key>", "private_key_b64": "<32-byte seed>" }

Options:
  --out <file>  write the key file (mode 0600); refuses to overwrite an existing file.
                Without --out the key file is printed to stdout.
  -h, --help    show this help
`;

export const keygenCommand: Command = {
  summary: 'create a new Ed25519 device key file',
  usage: USAGE,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, help } = parseCommandArgs(args, { out: { type: 'string', short: 'o' } }, { min: 0, max: 0 });
    if (help) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    // The seed is the whole secret: it must come from the OS CSPRNG.
    const key = keyFileOf(new Uint8Array(randomBytes(32)), new NodeEd25519());
    if (values.out === undefined) {
      io.stdout.write(keyFileText(key));
      return EXIT_OK;
    }
    await writeKeyFile(values.out, io.cwd, key);
    io.stdout.write(`wrote ${values.out}\npublic_key_b64 ${key.public_key_b64}\n`);
    return EXIT_OK;
  },
};
