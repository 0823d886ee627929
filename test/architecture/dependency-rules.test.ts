import test from 'ava';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IConfiguration, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { ADAPTER_CASES } from './adapter-rule-cases.js';
import { ROOT_CASES } from './root-rule-cases.js';
import { EVERY_FILE_CASES, RING_CASES, type Cases, type Files } from './rule-cases.js';

/**
 * Every rule of .dependency-cruiser.cjs (ARCHITECTURE.md's import tables) refuses a file that
 * breaks it and lets through one that does not. Each case is a little repository laid out like
 * this one, written to a temporary directory and cruised as `npm run lint` cruises src, with the
 * repository's own rule set.
 */

const loadConfig = createRequire(import.meta.url);
const config = loadConfig('../../.dependency-cruiser.cjs') as IConfiguration;
const ruleNames = (config.forbidden ?? []).map((rule) => rule.name ?? '(a rule without a name)');
const CASES: Readonly<Record<string, Cases>> = { ...RING_CASES, ...ADAPTER_CASES, ...ROOT_CASES, ...EVERY_FILE_CASES };

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, isolatedModules: true },
  include: ['src', 'migrations'],
};

let root: string | undefined;
let repositories = 0;

test.after.always(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** What each import (`from '…'`, `import '…'`, `import('…')`) in `text` names. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map((match) => match[1]!);
}

/** Writes `files` as a repository of its own, with what they import and a tsconfig.json; returns its directory. */
async function writeRepository(files: Files): Promise<string> {
  root ??= await mkdtemp(path.join(tmpdir(), 'dependency-rules-'));
  const dir = path.join(root, String(repositories++));
  const written = new Map<string, string>(Object.entries(files));
  written.set('tsconfig.json', JSON.stringify(TSCONFIG));
  for (const [file, text] of Object.entries(files)) {
    for (const specifier of specifiers(text)) {
      if (specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) {
        const target = path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts');
        if (!written.has(target)) written.set(target, 'export {};\n');
        continue;
      }
      const parts = specifier.split('/');
      const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
      const inside = parts.slice(name.split('/').length).join('/');
      written.set(`node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
      written.set(`node_modules/${name}/${inside.endsWith('.js') ? inside : 'index.js'}`, 'module.exports = {};\n');
    }
  }
  for (const [file, text] of written) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

/** The violations `npm run lint`'s cruise (src, this repository's rules) finds in `files`. */
async function violationsIn(files: Files): Promise<IViolation[]> {
  const dir = await writeRepository(files);
  const tsConfig = path.join(dir, 'tsconfig.json');
  const { output } = await cruise(
    ['src'],
    { ...config.options, baseDir: dir, tsConfig: { fileName: tsConfig }, validate: true, ruleSet: { forbidden: config.forbidden ?? [] } },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  if (typeof output === 'string') throw new Error(`dependency-cruiser answered text, not a cruise result: ${output}`);
  const cruised = new Set(output.modules.map((module) => module.source));
  const missed = Object.keys(files).filter((file) => !cruised.has(file));
  if (missed.length > 0) throw new Error(`the cruise from src did not reach ${missed.join(', ')}`);
  return output.summary.violations;
}

const described = (violations: IViolation[]) => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

// The cruises run one at a time: dependency-cruiser keeps caches between them.
for (const [rule, { breaking, allowed }] of Object.entries(CASES)) {
  breaking.forEach((files, i) => {
    test.serial(`${rule} refuses (${i + 1}) ${Object.keys(files).join(', ')}`, async (t) => {
      const violations = await violationsIn(files);
      t.deepEqual([...new Set(violations.map((v) => v.rule.name))], [rule], described(violations).join('\n'));
      for (const v of violations) t.true(v.from in files, `${v.from} is one of the case's files`);
    });
  });
  allowed.forEach((files, i) => {
    test.serial(`${rule} allows (${i + 1}) ${Object.keys(files).join(', ')}`, async (t) => {
      t.deepEqual(described(await violationsIn(files)), []);
    });
  });
}

test('every rule has a file that breaks it and one it allows, and every case names a rule', (t) => {
  t.is(new Set(ruleNames).size, ruleNames.length, 'rule names are unique');
  t.deepEqual(
    ruleNames.filter((name) => !CASES[name]?.breaking.length),
    [],
    'rules without a breaking case',
  );
  t.deepEqual(
    ruleNames.filter((name) => !CASES[name]?.allowed.length),
    [],
    'rules without an allowed case',
  );
  t.deepEqual(
    Object.keys(CASES).filter((name) => !ruleNames.includes(name)),
    [],
    'cases for rules the configuration does not have',
  );
});
