import test from 'ava';
import { COMMANDS } from '../../../src/adapters/cli/main.js';
import { cli, tempDir } from './harness.js';

for (const argv of [['--help'], ['-h'], ['help']]) {
  test(`${argv.join(' ')} lists every command with its summary (exit 0)`, async (t) => {
    const r = await cli(argv, tempDir(t));
    t.is(r.code, 0);
    t.is(r.stderr, '');
    t.regex(r.stdout, /^Usage: proof-registry <command>/);
    for (const [name, command] of Object.entries(COMMANDS)) {
      t.regex(r.stdout, new RegExp(`^  ${name} +${command.summary.replace(/[()]/g, '\\$&')}$`, 'm'));
    }
  });
}

for (const name of Object.keys(COMMANDS)) {
  test(`${name} --help and help ${name} print the command's usage (exit 0)`, async (t) => {
    const dir = tempDir(t);
    const flag = await cli([name, '--help'], dir);
    t.is(flag.code, 0);
    t.is(flag.stdout, COMMANDS[name]!.usage);
    t.true(flag.stdout.startsWith(`Usage: proof-registry ${name}`));
    const topic = await cli(['help', name], dir);
    t.is(topic.code, 0);
    t.is(topic.stdout, flag.stdout);
  });
}

test('no command prints the help to stderr (exit 2)', async (t) => {
  const r = await cli([], tempDir(t));
  t.is(r.code, 2);
  t.is(r.stdout, '');
  t.regex(r.stderr, /^Usage: proof-registry/);
});

test('an unknown command is a usage error (exit 2)', async (t) => {
  for (const name of ['frobnicate', 'toString', '__proto__']) {
    const r = await cli([name], tempDir(t));
    t.is(r.code, 2);
    t.true(r.stderr.startsWith(`proof-registry: unknown command ${JSON.stringify(name)}\n`), r.stderr);
  }
});

test('help for an unknown command is a usage error', async (t) => {
  const r = await cli(['help', 'frobnicate'], tempDir(t));
  t.is(r.code, 2);
  t.regex(r.stderr, /unknown command "frobnicate"/);
});
