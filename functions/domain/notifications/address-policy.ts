/**
 * @module notifications/address-policy
 * Which addresses a destination may reach (SSRF, ADR 0054): never a private, link-local, loopback,
 * metadata or otherwise special-purpose address (IANA's special-purpose registries, RFC 6890),
 * except loopback in the local profile (how one tries webhooks on one machine). The ranges are
 * checked with Node's own `net.BlockList`, which also matches IPv4-mapped IPv6 addresses
 * (`::ffff:10.0.0.1`) against the IPv4 ranges. A URL is checked at creation and every address its
 * host resolves to is checked again at each delivery (the sender connects to the address it checked).
 */
import { BlockList, isIP } from 'node:net';
import { ValidationError } from '#domain/errors';

/** One special-purpose range and what it is, for the refusal's message. */
type Range = readonly [address: string, prefix: number, family: 'ipv4' | 'ipv6', what: string];

const LOOPBACK: readonly Range[] = [
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['::1', 128, 'ipv6', 'loopback'],
];

const SPECIAL: readonly Range[] = [
  ['0.0.0.0', 8, 'ipv4', '"this network"'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'shared address space (carrier-grade NAT)'],
  ['169.254.0.0', 16, 'ipv4', 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'ipv4', 'documentation'],
  ['192.88.99.0', 24, 'ipv4', '6to4 relay anycast'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'benchmarking'],
  ['198.51.100.0', 24, 'ipv4', 'documentation'],
  ['203.0.113.0', 24, 'ipv4', 'documentation'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['64:ff9b::', 96, 'ipv6', 'NAT64 (may embed a private IPv4 address)'],
  ['64:ff9b:1::', 48, 'ipv6', 'local-use NAT64'],
  ['100::', 64, 'ipv6', 'discard-only'],
  ['2001::', 23, 'ipv6', 'IETF protocol assignments (Teredo included)'],
  ['2001:db8::', 32, 'ipv6', 'documentation'],
  ['2002::', 16, 'ipv6', '6to4 (embeds an IPv4 address)'],
  ['fc00::', 7, 'ipv6', 'unique local (private; the EC2 metadata service at fd00:ec2::254)'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'site-local'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const listOf = (ranges: readonly Range[]): readonly (readonly [BlockList, string])[] =>
  ranges.map(([address, prefix, family, what]) => {
    const list = new BlockList();
    list.addSubnet(address, prefix, family);
    return [list, what] as const;
  });

const LOOPBACK_LISTS = listOf(LOOPBACK);
const SPECIAL_LISTS = listOf(SPECIAL);

/** What this deployment lets destinations reach. */
export interface AddressPolicy {
  /** Loopback destinations (the local profile only), over plain HTTP too. */
  readonly allowLoopback: boolean;
}

const matching = (lists: readonly (readonly [BlockList, string])[], address: string): string | undefined => {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  return lists.find(([list]) => list.check(address, family))?.[1];
};

/** Whether an address is loopback (`127.0.0.0/8`, `::1`, or either IPv4-mapped). */
export const isLoopback = (address: string): boolean => matching(LOOPBACK_LISTS, address) !== undefined;

/**
 * Why an address may not be reached under a policy (`169.254.169.254 is link-local (cloud
 * metadata)`), or `undefined` when it may.
 */
export const refusalOf = (address: string, policy: AddressPolicy): string | undefined => {
  if (isIP(address) === 0) return `${address} is not an IP address`;
  const loopback = matching(LOOPBACK_LISTS, address);
  if (loopback) return policy.allowLoopback ? undefined : `${address} is ${loopback}`;
  const special = matching(SPECIAL_LISTS, address);
  return special ? `${address} is ${special}` : undefined;
};

/** Port: resolves a host name to every address it has (A and AAAA). */
export interface HostResolver {
  resolve(hostname: string): Promise<readonly string[]>;
}

/** A host name as the URL holds it, without an IPv6 literal's brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The longest URL a destination may have. */
export const MAX_URL_CHARS = 2_000;

/**
 * Checks a destination URL: absolute HTTPS (plain HTTP only to loopback where loopback is allowed),
 * no credentials in it, and every address its host resolves to allowed. Throws a ValidationError
 * (400) naming the problem; returns the URL as normalized.
 */
export const checkDestinationUrl = async (raw: string, policy: AddressPolicy, resolver: HostResolver): Promise<string> => {
  if (!URL.canParse(raw)) throw new ValidationError(`url: ${JSON.stringify(raw.slice(0, 100))} is not an absolute URL`);
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ValidationError(`url: the scheme must be https, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username || url.password) throw new ValidationError('url: credentials in the URL are not accepted (the delivery is signed with the secret instead)');
  const host = hostOf(url);
  const addresses = isIP(host) === 0 ? await resolved(host, resolver) : [host];
  for (const address of addresses) {
    const refusal = refusalOf(address, policy);
    if (refusal) throw new ValidationError(`url: ${host === address ? '' : `${host} resolves to ${address}, and `}${refusal}: destinations must be public addresses${policy.allowLoopback ? ' (or loopback, in the local profile)' : ''}`);
  }
  if (url.protocol === 'http:' && !(policy.allowLoopback && addresses.every(isLoopback))) throw new ValidationError('url: the scheme must be https (plain http is accepted only for loopback destinations of the local profile)');
  return url.toString();
};

const resolved = async (host: string, resolver: HostResolver): Promise<readonly string[]> => {
  let addresses: readonly string[];
  try {
    addresses = await resolver.resolve(host);
  } catch (err) {
    throw new ValidationError(`url: the host ${host} does not resolve (${(err as { code?: string }).code ?? (err as Error).message})`);
  }
  if (addresses.length === 0) throw new ValidationError(`url: the host ${host} does not resolve`);
  return addresses;
};
