import test from 'ava';
import { WalletKeys, type WalletRow } from '../../../src/adapters/sql/wallet-keys.js';

/** A lookup over a growing table of addresses, recording what it was asked. */
function fakeLookup() {
  const table = new Map<string, number>();
  const asked: string[][] = [];
  const lookup = async (addresses: readonly string[]): Promise<WalletRow[]> => {
    asked.push([...addresses]);
    for (const a of addresses) if (!table.has(a)) table.set(a, table.size + 1);
    // pg answers bigints as strings.
    return addresses.map((address) => ({ id: String(table.get(address)), address }));
  };
  return { lookup, asked };
}

test('keys of new wallets are looked up once, each address once, and remembered', async (t) => {
  const { lookup, asked } = fakeLookup();
  const keys = new WalletKeys(lookup);
  const first = await keys.of(['a', 'b', 'a']);
  t.deepEqual(
    [...first],
    [
      ['a', 1],
      ['b', 2],
    ],
  );
  t.deepEqual(asked, [['a', 'b']]);
  const second = await keys.of(['b', 'c']);
  t.deepEqual([...second].sort(), [
    ['b', 2],
    ['c', 3],
  ]);
  t.deepEqual(asked, [['a', 'b'], ['c']]);
  await keys.of(['a', 'b', 'c']);
  t.is(asked.length, 2, 'wallets already seen need no lookup');
});

test('the answer holds only the addresses asked for', async (t) => {
  const { lookup } = fakeLookup();
  const keys = new WalletKeys(lookup);
  await keys.of(['a', 'b']);
  t.deepEqual([...(await keys.of(['b']))], [['b', 2]]);
});

test('a key the lookup did not answer is an error, not a guess', async (t) => {
  const keys = new WalletKeys(async () => []);
  const answered = await keys.of(['a']);
  t.is(answered.size, 0);
  t.throws(() => WalletKeys.get(answered, 'a'), { message: /no wallet key/ });
});

test('a failed lookup remembers nothing, and the next batch asks again', async (t) => {
  const { lookup, asked } = fakeLookup();
  let fail = true;
  const keys = new WalletKeys(async (addresses) => {
    if (fail) throw new Error('database down');
    return lookup(addresses);
  });
  await t.throwsAsync(keys.of(['a']), { message: 'database down' });
  fail = false;
  t.deepEqual([...(await keys.of(['a']))], [['a', 1]]);
  t.deepEqual(asked, [['a']]);
});
