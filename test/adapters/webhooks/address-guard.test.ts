import test from 'ava';
import type { LookupAddress } from 'node:dns';
import { addressProblem, guardedLookup, hostProblem, type Resolve } from '../../../src/adapters/webhooks/address-guard.js';

/** Each address, and why a webhook may not reach it. */
const REFUSED: readonly (readonly [string, string])[] = [
  ['0.0.0.0', 'an unspecified address'],
  ['0.1.2.3', 'an unspecified address'],
  ['::', 'an unspecified address'],
  ['127.0.0.1', 'a loopback address'],
  ['127.255.255.254', 'a loopback address'],
  ['::1', 'a loopback address'],
  ['0:0:0:0:0:0:0:1', 'a loopback address'],
  ['10.0.0.7', 'a private address'],
  ['172.16.0.1', 'a private address'],
  ['172.31.255.255', 'a private address'],
  ['192.168.1.1', 'a private address'],
  ['100.64.0.1', 'a carrier-grade NAT address'],
  ['100.127.255.255', 'a carrier-grade NAT address'],
  ['169.254.0.1', 'a link-local address'],
  ['169.254.169.254', 'the cloud metadata address'],
  ['fe80::1', 'a link-local address'],
  ['fe80::1%eth0', 'a link-local address'],
  ['febf::1', 'a link-local address'],
  ['fec0::1', 'a site-local address'],
  ['fc00::1', 'a unique-local address'],
  ['fd12:3456::1', 'a unique-local address'],
  ['fd00:ec2::254', 'the cloud metadata address'],
  ['224.0.0.1', 'a multicast address'],
  ['239.255.255.250', 'a multicast address'],
  ['ff02::1', 'a multicast address'],
  ['240.0.0.1', 'a reserved address'],
  ['255.255.255.255', 'a reserved address'],
  ['192.0.0.8', 'a reserved address'],
  ['198.18.0.1', 'a benchmarking address'],
  ['198.19.255.255', 'a benchmarking address'],
  ['192.0.2.1', 'a documentation address'],
  ['198.51.100.7', 'a documentation address'],
  ['203.0.113.9', 'a documentation address'],
  ['2001:db8::1', 'a documentation address'],
  // IPv6 forms that reach an IPv4 host are judged by that host.
  ['::ffff:127.0.0.1', 'a loopback address'],
  ['::ffff:7f00:1', 'a loopback address'],
  ['::FFFF:10.0.0.1', 'a private address'],
  ['::ffff:169.254.169.254', 'the cloud metadata address'],
  ['::127.0.0.1', 'a loopback address'],
  ['::a00:1', 'a private address'],
  ['::ffff:0:192.168.0.1', 'a private address'],
  ['64:ff9b::127.0.0.1', 'a loopback address'],
  ['64:ff9b::a9fe:a9fe', 'the cloud metadata address'],
  ['2002:7f00:1::', 'a loopback address'],
];

const ALLOWED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.215.14',
  '172.32.0.1',
  '100.128.0.1',
  '198.20.0.1',
  '2606:4700::1111',
  '2a00:1450:4001::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
];

for (const [address, reason] of REFUSED) {
  test(`addressProblem refuses ${address}: ${reason}`, (t) => {
    t.is(addressProblem(address, false), reason);
    t.is(addressProblem(address, true), null, 'allowPrivate allows every address');
  });
}

for (const address of ALLOWED) {
  test(`addressProblem allows ${address}`, (t) => {
    t.is(addressProblem(address, false), null);
  });
}

test('addressProblem says when it is given no address', (t) => {
  t.is(addressProblem('example.com', false), 'not an IP address');
});

/** Hosts as a URL gives them: WHATWG URL turns odd IPv4 spellings into the dotted quad. */
const hostOf = (authority: string): string => new URL(`http://${authority}/`).hostname;

/** URL authorities, and why a webhook URL with their host is refused. */
const REFUSED_URL_HOSTS: readonly (readonly [string, string])[] = [
  ['0x7f.1', 'a loopback address'],
  ['127.1', 'a loopback address'],
  ['0177.0.0.1', 'a loopback address'],
  ['2130706433', 'a loopback address'],
  ['0', 'an unspecified address'],
  ['0xa9.0xfe.0xa9.0xfe', 'the cloud metadata address'],
  ['[::1]', 'a loopback address'],
  ['[0:0::1]', 'a loopback address'],
  ['[::ffff:127.0.0.1]', 'a loopback address'],
  ['[fd00:ec2::254]', 'the cloud metadata address'],
  ['LOCALHOST', 'a loopback name'],
  ['localhost.', 'a loopback name'],
  ['api.localhost', 'a loopback name'],
  ['metadata.google.internal', 'an internal name'],
  ['printer.local', 'a link-local (mDNS) name'],
];

for (const [authority, reason] of REFUSED_URL_HOSTS) {
  test(`hostProblem refuses the URL host of ${authority} (${hostOf(authority)}): ${reason}`, (t) => {
    t.is(hostProblem(hostOf(authority), false), reason);
  });
}

/** Hosts given as typed, not through a URL: the same spellings are still recognised. */
const REFUSED_RAW_HOSTS: readonly (readonly [string, string])[] = [
  ['0x7f.1', 'a loopback address'],
  ['::1', 'a loopback address'],
  ['127.0.0.%31', 'a loopback address'],
  ['Localhost', 'a loopback name'],
  ['', 'an empty host name'],
  ['evil.example@127.0.0.1', 'not a valid host name'],
  ['evil.example:80', 'not a valid host name'],
  ['[not-ipv6]', 'not a valid IPv6 address'],
];

for (const [host, reason] of REFUSED_RAW_HOSTS) {
  test(`hostProblem refuses ${JSON.stringify(host)} as given: ${reason}`, (t) => {
    t.is(hostProblem(host, false), reason);
  });
}

test('hostProblem leaves other names to the delivery, and allowPrivate allows local ones', (t) => {
  for (const host of [
    'hooks.example.com',
    hostOf('Hooks.Example.COM'),
    'localhost.example.com',
    'internal.example',
    hostOf('[2606:4700::1111]'),
    hostOf('8.8.8.8'),
  ]) {
    t.is(hostProblem(host, false), null, host);
  }
  for (const host of ['localhost', 'metadata.google.internal', 'printer.local', '127.0.0.1', '[::1]']) t.is(hostProblem(host, true), null, host);
});

/** A DNS that answers each name from the table. */
const dnsOf =
  (table: Record<string, readonly string[]>): Resolve =>
  async (hostname) => {
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

type Answer = { error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number };

function lookup(resolve: Resolve, hostname: string, options: { all?: boolean; family?: number }, allowPrivate = false): Promise<Answer> {
  return new Promise((done) => guardedLookup(allowPrivate, resolve)(hostname, options, (error, address, family) => done({ error, address, family })));
}

const DNS = dnsOf({
  'hooks.example': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebinding.example': ['93.184.215.14', '127.0.0.1'],
  'private.example': ['10.0.0.7'],
  'empty.example': [],
});

test('the guarded lookup hands back the addresses it judged, in both callback forms Node uses', async (t) => {
  const all = await lookup(DNS, 'hooks.example', { all: true });
  t.is(all.error, null);
  t.deepEqual(all.address, [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ]);
  const one = await lookup(DNS, 'hooks.example', {});
  t.is(one.error, null);
  t.is(one.address, '93.184.215.14');
  t.is(one.family, 4);
});

test('a name with any forbidden address is refused, whichever callback form (DNS rebinding)', async (t) => {
  for (const options of [{ all: true }, {}]) {
    const rebinding = await lookup(DNS, 'rebinding.example', options);
    t.is(rebinding.error?.message, 'refused: rebinding.example resolves to 127.0.0.1, a loopback address');
    t.is(rebinding.error?.code, 'ERR_WEBHOOK_ADDRESS_REFUSED');
    const private_ = await lookup(DNS, 'private.example', options);
    t.is(private_.error?.message, 'refused: private.example resolves to 10.0.0.7, a private address');
  }
  const allowed = await lookup(DNS, 'rebinding.example', { all: true }, true);
  t.is(allowed.error, null, 'allowPrivate lets it through');
});

test('the guarded lookup passes on resolver failures and an empty answer as errors', async (t) => {
  t.is((await lookup(DNS, 'missing.example', {})).error?.code, 'ENOTFOUND');
  t.is((await lookup(DNS, 'empty.example', { all: true })).error?.code, 'ENOTFOUND');
});

test('the guarded lookup asks the resolver for the family Node asks for', async (t) => {
  const asked: number[] = [];
  const resolve: Resolve = async (hostname, options) => {
    asked.push(options.family);
    return DNS(hostname, options);
  };
  await lookup(resolve, 'hooks.example', { family: 6 });
  await lookup(resolve, 'hooks.example', { all: true });
  t.deepEqual(asked, [6, 0]);
});
