import { describe, expect, it } from 'vitest';
import { classifyAddress, isAddressAllowed } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.216.34', 'public'],
    ['2606:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['127.8.9.10', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['169.254.0.1', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['fe80::1%eth0', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['192.0.2.1', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['168.63.129.16', 'forbidden'],
    ['not-an-ip', 'forbidden'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  // An IPv6 address that embeds an IPv4 one is classified as the IPv4 address it carries.
  it.each([
    ['IPv4-mapped', '::ffff:127.0.0.1', 'private'],
    ['IPv4-mapped', '::ffff:7f00:1', 'private'],
    ['IPv4-mapped', '::ffff:169.254.169.254', 'forbidden'],
    ['IPv4-mapped', '::ffff:a9fe:a9fe', 'forbidden'],
    ['IPv4-mapped', '::ffff:8.8.8.8', 'public'],
    ['IPv4-mapped', '[::ffff:10.0.0.1]', 'private'],
    ['NAT64', '64:ff9b::a9fe:a9fe', 'forbidden'],
    ['NAT64', '64:ff9b::7f00:1', 'private'],
    ['NAT64', '64:ff9b::808:808', 'public'],
    ['6to4', '2002:a9fe:a9fe::1', 'forbidden'],
    ['6to4', '2002:c0a8:0101::1', 'private'],
    ['IPv4-compatible', '::a9fe:a9fe', 'forbidden'],
    ['IPv4-compatible', '::7f00:1', 'private'],
  ])('the %s address %s is %s', (_kind, address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('isAddressAllowed', () => {
  it('refuses private addresses unless private networks are allowed, and link-local always', () => {
    expect(isAddressAllowed('8.8.8.8', false)).toBe(true);
    expect(isAddressAllowed('127.0.0.1', false)).toBe(false);
    expect(isAddressAllowed('127.0.0.1', true)).toBe(true);
    expect(isAddressAllowed('::1', true)).toBe(true);
    expect(isAddressAllowed('169.254.169.254', true)).toBe(false);
    expect(isAddressAllowed('fe80::1', true)).toBe(false);
    expect(isAddressAllowed('::ffff:169.254.169.254', true)).toBe(false);
  });
});
