import { lookup } from 'node:dns/promises';
import { BlockList } from 'node:net';
import { describe, expect, it } from 'vitest';
import { channelAddress, channelDestination } from '../../src/shared/alertChannels';
import {
  channelAddressVerdict,
  cidrOf,
  classifyHost,
  hostOfText,
  IPV4_RANGES,
  type AddressScope,
} from '../../src/shared/netAddress';

// The one address classifier of the service URL and the alert channels (src/shared/netAddress.ts): every spelling of
// an address is judged as the address it is, the IPv4 table agrees with node:net's BlockList, and the channel rule
// refuses link-local, metadata and Lotwatch's own port while it notes a private network address.

/** Spellings of 169.254.169.254 that the system's resolver (getaddrinfo) also reads as 169.254.169.254. */
const RESOLVER_SPELLINGS = ['2852039166', '0xa9fea9fe', '0XA9FEA9FE', '0251.0376.0251.0376', '169.254.43518'];

describe('hostOfText', () => {
  it('reads every spelling of an IPv4 address as the system resolver does', async () => {
    for (const h of RESOLVER_SPELLINGS) {
      const resolved = (await lookup(h, { all: true })).map((a) => a.address);
      expect(resolved, h).toEqual(['169.254.169.254']);
      expect(hostOfText(h), h).toBe('169.254.169.254');
    }
    expect(hostOfText('169.254.169.254.')).toBe('169.254.169.254');
  });

  it('writes IPv6 as the URL parser does, names in lower case, and refuses what is not a host', () => {
    expect(hostOfText('::ffff:169.254.169.254')).toBe('[::ffff:a9fe:a9fe]');
    expect(hostOfText('[FE80::1]')).toBe('[fe80::1]');
    expect(hostOfText('SMTP.Example.COM')).toBe('smtp.example.com');
    for (const bad of ['', 'smtp.example.com:587', 'a b', 'user@host', 'host/path', '[::1', '1.2.3.256.7']) {
      expect(hostOfText(bad), bad).toBeNull();
    }
  });
});

describe('classifyHost', () => {
  it.each<[string, AddressScope]>([
    ['169.254.169.254', 'link-local'],
    ['[::ffff:a9fe:a9fe]', 'link-local'],
    ['fe80::1', 'link-local'],
    ['[fd00:ec2::254]', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['METADATA.google.internal..', 'metadata'],
    ['instance-data', 'metadata'],
    ['192.168.1.20', 'private'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['[fd12::1]', 'private'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['LocalHost.', 'loopback'],
    ['0.0.0.0', 'not-a-host'],
    ['[::]', 'not-a-host'],
    ['224.0.0.1', 'not-a-host'],
    ['8.8.8.8', 'public'],
    ['[2606:4700::1111]', 'public'],
    ['ntfy.sh', 'public'],
  ])('%s is %s', (host, scope) => {
    expect(classifyHost(host)?.scope).toBe(scope);
  });

  it("agrees with node:net's BlockList on every IPv4 range, edges included", () => {
    // One BlockList per range: an address's scope is that of the first range (the narrower first) that holds it.
    const lists = IPV4_RANGES.map((r) => {
      const list = new BlockList();
      const [net, bits] = cidrOf(r).split('/');
      list.addSubnet(net!, Number(bits), 'ipv4');
      return { list, scope: r[2] };
    });
    const quad = (a: number) => [24, 16, 8, 0].map((s) => Math.floor(a / 2 ** s) % 256).join('.');
    const probes: string[] = [];
    for (const [base, bits] of IPV4_RANGES) {
      const size = 2 ** (32 - bits);
      for (const a of [base - 1, base, base + 1, base + size - 1, base + size]) {
        if (a >= 0 && a < 2 ** 32) probes.push(quad(a));
      }
    }
    for (const ip of probes) {
      const expected = lists.find((l) => l.list.check(ip, 'ipv4'))?.scope ?? 'public';
      expect(classifyHost(ip)?.scope, ip).toBe(expected);
    }
    expect(probes.length).toBeGreaterThan(40);
  });
});

describe('channelAddressVerdict', () => {
  it('refuses link-local and metadata addresses, not-a-host and Lotwatch itself; notes this computer and the LAN', () => {
    expect(channelAddressVerdict('169.254.169.254', 80).refusal).toMatch(/metadata address/);
    expect(channelAddressVerdict('metadata', 80).refusal).toMatch(/metadata address/);
    expect(channelAddressVerdict('0.0.0.0', 80).refusal).toMatch(/not the address of a computer/);
    expect(channelAddressVerdict('127.0.0.1', 4100, [4100]).refusal).toMatch(
      /127\.0\.0\.1:4100 is Lotwatch itself/,
    );
    expect(channelAddressVerdict('[::1]', 4100, [4100]).refusal).toMatch(/\[::1\]:4100 is Lotwatch itself/);
    expect(channelAddressVerdict('127.0.0.1', 4101, [4100])).toEqual({
      refusal: null,
      note: 'This sends alerts to a program on this computer: 127.0.0.1.',
    });
    expect(channelAddressVerdict('192.168.1.20', 25)).toEqual({
      refusal: null,
      note: 'This sends alerts to a computer on your own network: 192.168.1.20.',
    });
    expect(channelAddressVerdict('smtp.gmail.com', 587)).toEqual({ refusal: null, note: null });
  });
});

describe('channelDestination', () => {
  it('is host and port for email, the origin for ntfy and a webhook, in one spelling', () => {
    const email = {
      type: 'email' as const,
      host: 'SMTP.Example.com.',
      port: 587,
      security: 'starttls' as const,
      username: 'u',
      from: 'a@example.com',
      to: 'b@example.com',
    };
    expect(channelDestination(email)).toBe('smtp://smtp.example.com:587');
    expect(channelDestination({ ...email, host: '2852039166' })).toBe('smtp://169.254.169.254:587');
    expect(channelDestination({ ...email, host: '::1', port: 25 })).toBe('smtp://[::1]:25');
    const ntfy = { type: 'ntfy' as const, server: 'https://NTFY.sh/', topic: 't', priority: 3 };
    expect(channelDestination(ntfy)).toBe('https://ntfy.sh:443');
    expect(channelDestination({ ...ntfy, server: 'https://ntfy.sh:8443/x' })).toBe('https://ntfy.sh:8443');
    const hook = { type: 'webhook' as const, format: 'json' as const, telegram_chat_id: '' };
    expect(channelDestination(hook, 'https://discord.com/api/webhooks/1/tok')).toBe(
      'https://discord.com:443',
    );
    expect(channelDestination(hook, null)).toBeNull();
    expect(channelAddress(hook, 'http://[::ffff:a9fe:a9fe]/x')).toEqual({
      hostname: '[::ffff:a9fe:a9fe]',
      port: 80,
      field: 'secret',
    });
  });
});
