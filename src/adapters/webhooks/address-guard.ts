import { promises as dns, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Which addresses a webhook may reach. A webhook URL is chosen by a user, so without this
 * guard the registry would POST, from inside its own network, to whatever that user names:
 * the cloud metadata service, a database's admin port, a router. Only public unicast
 * addresses pass; `allowPrivate` lifts the guard for tests and private deployments.
 */

type Subnet = readonly [network: string, prefix: number];

interface Range {
  readonly reason: string;
  readonly ipv4?: readonly Subnet[];
  readonly ipv6?: readonly Subnet[];
}

// The first range that holds an address names it, so the narrow ones come first.
const RANGES: readonly Range[] = [
  { reason: 'the cloud metadata address', ipv4: [['169.254.169.254', 32]], ipv6: [['fd00:ec2::254', 128]] },
  { reason: 'an unspecified address', ipv4: [['0.0.0.0', 8]], ipv6: [['::', 128]] },
  { reason: 'a loopback address', ipv4: [['127.0.0.0', 8]], ipv6: [['::1', 128]] },
  {
    reason: 'a private address',
    ipv4: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
  },
  { reason: 'a carrier-grade NAT address', ipv4: [['100.64.0.0', 10]] },
  { reason: 'a link-local address', ipv4: [['169.254.0.0', 16]], ipv6: [['fe80::', 10]] },
  { reason: 'a site-local address', ipv6: [['fec0::', 10]] },
  { reason: 'a unique-local address', ipv6: [['fc00::', 7]] },
  { reason: 'a multicast address', ipv4: [['224.0.0.0', 4]], ipv6: [['ff00::', 8]] },
  { reason: 'a benchmarking address', ipv4: [['198.18.0.0', 15]], ipv6: [['2001:2::', 48]] },
  {
    reason: 'a documentation address',
    ipv4: [
      ['192.0.2.0', 24],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
    ],
    ipv6: [['2001:db8::', 32]],
  },
  {
    reason: 'a reserved address',
    // 240/4 holds the broadcast address; 192.88.99/24 was the 6to4 relay; 100::/64 discards;
    // 2001::/32 (Teredo) tunnels to an IPv4 address that cannot be judged from outside.
    ipv4: [
      ['240.0.0.0', 4],
      ['192.0.0.0', 24],
      ['192.88.99.0', 24],
    ],
    ipv6: [
      ['100::', 64],
      ['2001::', 32],
      ['64:ff9b:1::', 48],
    ],
  },
];

const LISTS: readonly { readonly reason: string; readonly list: BlockList }[] = RANGES.map((range) => {
  const list = new BlockList();
  for (const [network, prefix] of range.ipv4 ?? []) list.addSubnet(network, prefix, 'ipv4');
  for (const [network, prefix] of range.ipv6 ?? []) list.addSubnet(network, prefix, 'ipv6');
  return { reason: range.reason, list };
});

/** Why a webhook may not reach `address` (an IP address), or null when it may. */
export function addressProblem(address: string, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const bare = address.replace(/%.*$/, ''); // a zone id names an interface, not another address
  const family = isIP(bare);
  if (family === 0) return 'not an IP address';
  if (family === 4) return rangeOf(bare, 'ipv4');
  const listed = rangeOf(bare, 'ipv6');
  if (listed !== null) return listed;
  // These forms reach an IPv4 host: judge the host, or ::ffff:127.0.0.1 would be loopback by another name.
  const embedded = embeddedIpv4(ipv6Bytes(bare));
  return embedded === null ? null : addressProblem(embedded, false);
}

function rangeOf(address: string, type: 'ipv4' | 'ipv6'): string | null {
  return LISTS.find(({ list }) => list.check(address, type))?.reason ?? null;
}

/**
 * Why a webhook URL's host is refused when the webhook is created, or null. Literal addresses
 * are judged as addresses, in any spelling a URL accepts (`0x7f.1` is 127.0.0.1); names that
 * only mean something inside a network are refused; other names are judged at delivery, on
 * the address they resolve to then.
 */
export function hostProblem(hostname: string, allowPrivate: boolean): string | null {
  if (hostname === '') return 'an empty host name';
  const bracketed = /^\[(.*)\]$/.exec(hostname)?.[1];
  if (bracketed !== undefined) return isIP(bracketed) === 6 ? addressProblem(bracketed, allowPrivate) : 'not a valid IPv6 address';
  if (isIP(hostname) !== 0) return addressProblem(hostname, allowPrivate);
  // Anything that would make the text more than a host (a port, credentials, a path) is refused.
  if (/[\s/?#@\\:[\]]/.test(hostname)) return 'not a valid host name';
  let normalized: string;
  try {
    normalized = new URL(`http://${hostname}/`).hostname;
  } catch {
    return 'not a valid host name';
  }
  if (normalized.startsWith('[')) return addressProblem(normalized.slice(1, -1), allowPrivate);
  if (isIP(normalized) !== 0) return addressProblem(normalized, allowPrivate);
  if (allowPrivate) return null;
  const name = normalized.replace(/\.+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return 'a loopback name';
  if (name === 'internal' || name.endsWith('.internal')) return 'an internal name';
  if (name === 'local' || name.endsWith('.local')) return 'a link-local (mDNS) name';
  return null;
}

/** The resolver the guard asks; tests give their own to play a DNS server that rebinds. */
export type Resolve = (hostname: string, options: { readonly family: 0 | 4 | 6; readonly hints: number }) => Promise<readonly LookupAddress[]>;

const systemResolve: Resolve = (hostname, options) => dns.lookup(hostname, { ...options, all: true });

/** The guard refused every address a name resolves to, or one of them. */
export class AddressRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/**
 * A `lookup` for http.request that resolves the name once and judges what it got. The
 * connection is then made to the addresses judged, never to a second answer of the DNS: a
 * name that resolves to a public address when checked and to 127.0.0.1 when connected
 * (DNS rebinding) cannot slip through. Any forbidden address refuses the name, so a receiver
 * cannot hide 127.0.0.1 behind a public address that fails to connect.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const all = options.all === true;
    const fail = (error: NodeJS.ErrnoException) => (all ? callback(error, []) : callback(error, '', 0));
    resolve(hostname, { family: familyOf(options.family), hints: options.hints ?? 0 }).then(
      (addresses) => {
        if (addresses.length === 0) return fail(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
        for (const { address } of addresses) {
          const problem = addressProblem(address, allowPrivate);
          if (problem !== null) return fail(new AddressRefusedError(`refused: ${hostname} resolves to ${address}, ${problem}`));
        }
        if (all)
          return callback(
            null,
            addresses.map(({ address, family }) => ({ address, family })),
          );
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: unknown) => fail(error instanceof Error ? error : new Error(String(error))),
    );
  };
}

function familyOf(family: number | 'IPv4' | 'IPv6' | undefined): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

/** The 16 bytes of a valid IPv6 address (isIP says 6, no zone). */
function ipv6Bytes(address: string): Uint8Array {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = groups(tail);
  const words = [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    const value = parseInt(word, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}

const zero = (bytes: Uint8Array, from: number, to: number): boolean => bytes.subarray(from, to).every((b) => b === 0);

/** The IPv4 address an IPv6 address stands for: mapped, compatible, SIIT-translated, NAT64 or 6to4. */
function embeddedIpv4(b: Uint8Array): string | null {
  const quad = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  if (zero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return quad(12); // ::ffff:a.b.c.d
  if (zero(b, 0, 12)) return quad(12); // ::a.b.c.d
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && zero(b, 10, 12)) return quad(12); // ::ffff:0:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) return quad(12); // 64:ff9b::a.b.c.d
  if (b[0] === 0x20 && b[1] === 0x02) return quad(2); // 2002:aabb:ccdd::/48
  return null;
}
