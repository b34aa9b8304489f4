/**
 * The destinations' address policy (SSRF, ADR 0054): every special-purpose range refused, loopback
 * only where the policy allows it, IPv4-mapped IPv6 addresses judged by their IPv4 address, and a
 * host name judged by every address it resolves to.
 */
import { describe, expect, it } from 'vitest';
import { checkDestinationUrl, refusalOf } from '#domain/notifications/address-policy';
import { retryDelayMs, MAX_DELAY_MS } from '#domain/notifications/retry-policy';

const aws = { allowLoopback: false };
const local = { allowLoopback: true };
const resolving = (table: Record<string, string[]>) => ({ resolve: async (host: string) => table[host] ?? Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })) });

describe('refusalOf', () => {
  it.each([
    ['169.254.169.254', /link-local \(cloud metadata\)/],
    ['10.0.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.0.10', /private/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['0.0.0.0', /this network/],
    ['224.0.0.1', /multicast/],
    ['::ffff:169.254.169.254', /link-local/],
    ['fd00:ec2::254', /unique local/],
    ['fe80::1', /link-local/],
    ['64:ff9b::a00:1', /NAT64/],
    ['127.0.0.1', /loopback/],
    ['::1', /loopback/],
  ])('Should refuse %s in AWS', (address, reason) => {
    expect(refusalOf(address, aws)).toMatch(reason);
  });

  it('Should take loopback (and nothing else private) in the local profile, and public addresses anywhere', () => {
    expect(refusalOf('127.0.0.1', local)).toBeUndefined();
    expect(refusalOf('::ffff:127.0.0.1', local)).toBeUndefined();
    expect(refusalOf('10.0.0.1', local)).toMatch(/private/);
    expect(refusalOf('93.184.216.34', aws)).toBeUndefined();
    expect(refusalOf('2606:4700::1111', aws)).toBeUndefined();
  });
});

describe('checkDestinationUrl', () => {
  it('Should refuse a host name resolving to a private address, naming the name and the address', async () => {
    await expect(checkDestinationUrl('https://internal.example/hook', aws, resolving({ 'internal.example': ['10.20.30.40'] }))).rejects.toThrow(/internal\.example resolves to 10\.20\.30\.40, and 10\.20\.30\.40 is private/);
  });

  it('Should refuse a host name when any one of its addresses is refused', async () => {
    await expect(checkDestinationUrl('https://mixed.example/hook', aws, resolving({ 'mixed.example': ['93.184.216.34', '169.254.169.254'] }))).rejects.toThrow(/169\.254\.169\.254 is link-local/);
  });

  it('Should refuse a host that does not resolve, and plain http to a public address', async () => {
    await expect(checkDestinationUrl('https://nowhere.example/hook', aws, resolving({}))).rejects.toThrow(/does not resolve \(ENOTFOUND\)/);
    await expect(checkDestinationUrl('http://public.example/hook', local, resolving({ 'public.example': ['93.184.216.34'] }))).rejects.toThrow(/scheme must be https/);
  });

  it('Should take an https URL whose host resolves to public addresses only', async () => {
    await expect(checkDestinationUrl('https://hooks.example/a?b=1', aws, resolving({ 'hooks.example': ['93.184.216.34', '2606:4700::1111'] }))).resolves.toBe('https://hooks.example/a?b=1');
  });
});

describe('retryDelayMs', () => {
  it('Should double from 1 s with equal jitter, capped at 15 minutes', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, () => 0))).toEqual([500, 1_000, 2_000]);
    expect([1, 2, 3].map((n) => retryDelayMs(n, () => 1))).toEqual([1_000, 2_000, 4_000]);
    expect(retryDelayMs(30, () => 1)).toBe(MAX_DELAY_MS);
  });
});
