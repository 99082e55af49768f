import ipaddr from 'ipaddr.js';

/**
 * What an outbound request may reach: `public` always; `private` (loopback, RFC 1918, unique
 * local, carrier-grade NAT) only when private networks are allowed; `forbidden` never (link-local,
 * cloud metadata, unspecified, multicast, broadcast, reserved and documentation ranges).
 */
export type AddressClass = 'public' | 'private' | 'forbidden';

const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/**
 * Cloud metadata endpoints that are not link-local, refused even on intranets: AWS's IPv6 one (a
 * unique local address), Alibaba's (carrier-grade NAT) and Azure's wire server (a public address).
 */
const METADATA_ADDRESSES = new Set(['fd00:ec2::254', '100.100.100.200', '168.63.129.16']);

/** The IPv4 address an IPv6 one stands for (mapped, NAT64, 6to4), or the address itself. */
const unwrap = (address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 => {
  if (address.kind() === 'ipv4') return address;
  const v6 = address as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped') return v6.toIPv4Address();
  const bytes = v6.toByteArray();
  // NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) carries the IPv4 address in its last 32 bits.
  if (range === 'rfc6052') return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  // 6to4 (2002::/16) carries it in bits 16 to 48.
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  // IPv4-compatible (::a.b.c.d, deprecated) is still routed to the IPv4 address by some stacks.
  if (bytes.slice(0, 12).every((b) => b === 0) && !bytes.slice(12).every((b) => b === 0) && range !== 'loopback') {
    return ipaddr.fromByteArray(bytes.slice(12)) as ipaddr.IPv4;
  }
  return v6;
};

/** Classifies a literal IP address; anything that does not parse is forbidden. */
export const classifyAddress = (literal: string): AddressClass => {
  const bare = literal.startsWith('[') && literal.endsWith(']') ? literal.slice(1, -1) : literal;
  // A zone index (fe80::1%eth0) only ever names a link-local address.
  if (bare.includes('%') || !ipaddr.isValid(bare)) return 'forbidden';
  const parsed = ipaddr.parse(bare);
  const address = unwrap(parsed);
  if (METADATA_ADDRESSES.has(address.toString()) || METADATA_ADDRESSES.has(parsed.toString())) return 'forbidden';
  const range = address.range();
  if (range === 'unicast') return 'public';
  if (PRIVATE_RANGES.has(range)) return 'private';
  return 'forbidden';
};

export const isAddressAllowed = (literal: string, allowPrivateNetworks: boolean): boolean => {
  const kind = classifyAddress(literal);
  return kind === 'public' || (kind === 'private' && allowPrivateNetworks);
};
