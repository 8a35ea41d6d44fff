import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SettingsPatchSchema } from '../../src/shared/settings';
import { REFUSED_IPV4_CIDRS, serviceOrigin, serviceUrlRefusal } from '../../src/shared/serviceUrl';

/** The settings schema's verdict on a service URL: 'ok', or its first message. */
const verdict = (serviceUrl: string): string => {
  const r = SettingsPatchSchema.safeParse({ serviceUrl });
  return r.success ? 'ok' : (r.error.issues[0]?.message ?? '?');
};

describe('where the service URL may point', () => {
  it.each([
    // A service on this computer, in every usual spelling.
    'http://127.0.0.1:8787/api/v1/vehicle-auction',
    'http://127.8.9.10/api',
    'http://localhost:8787/api/v1/vehicle-auction',
    'http://[::1]:8787/api/v1/vehicle-auction',
    'https://[::ffff:127.0.0.1]/api',
    // Public services, by name or by address.
    'https://apibara.tech/api/v1/vehicle-auction',
    'https://api.example.com:8443/x',
    'https://10.example.com/x',
    'https://8.8.8.8/api',
    'https://172.15.255.255/',
    'https://172.32.0.1/',
    'https://192.169.0.1/',
    'https://100.63.255.255/',
    'https://[2001:4860:4860::8888]/api',
    'https://[2002:808:808::1]/api',
  ])('accepts %s', (u) => {
    expect(verdict(u)).toBe('ok');
  });

  it.each([
    ['http://10.0.0.1/', /10\.0\.0\.1 is a private network address/],
    ['https://10.255.255.255/api', /private/],
    ['https://172.16.0.1/', /private/],
    ['https://172.31.255.254/', /private/],
    ['https://192.168.1.1/api/v1/vehicle-auction', /private/],
    ['https://100.64.0.1/', /private/],
    ['http://169.254.169.254/latest/meta-data', /link-local/],
    ['http://0.0.0.0:8787/', /not the address of a host/],
    ['https://224.0.0.1/', /not the address of a host/],
    ['https://255.255.255.255/', /not the address of a host/],
    ['https://[fc00::1]/', /\[fc00::1\] is a private network address/],
    ['https://[fd12:3456:789a::1]:8443/x', /private/],
    ['https://[fe80::1]/', /link-local/],
    ['https://[FEC0::1]/', /link-local/],
    ['https://[::]/', /not the address of a host/],
    ['https://[ff02::1]/', /not the address of a host/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://[::ffff:a9fe:a9fe]/', /link-local/],
    ['https://[0:0:0:0:0:ffff:c0a8:101]/', /private/],
    ['https://[::10.0.0.1]/', /not the address of a host/],
    ['https://[64:ff9b::a00:1]/', /private/],
    ['https://[2002:c0a8:101::1]/', /private/],
    // Odd spellings of an IPv4 address: refused whatever they denote, with the plain spelling to use instead.
    ['http://2130706433/', /four numbers, 127\.0\.0\.1/],
    ['http://0x7f.1/', /four numbers, 127\.0\.0\.1/],
    ['http://127.1/', /four numbers, 127\.0\.0\.1/],
    ['https://167772161/', /four numbers, 10\.0\.0\.1/],
    ['https://012.0.0.1/', /four numbers, 10\.0\.0\.1/],
    ['https://0xc0a80101/', /four numbers, 192\.168\.1\.1/],
    ['https://user@0xa.1/', /four numbers, 10\.0\.0\.1/],
    ['https://10.0.0.1./', /four numbers, 10\.0\.0\.1/],
  ])('refuses %s', (u, message) => {
    expect(verdict(u)).toMatch(message);
    // The message says what to do.
    expect(verdict(u)).toMatch(/Enter the service's public address|Write the address/);
  });

  it('names the field, so the Settings form marks the Service URL', () => {
    const r = SettingsPatchSchema.safeParse({ serviceUrl: 'https://192.168.0.10/api' });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.path).toEqual(['serviceUrl']);
  });

  it("agrees with node:net's BlockList on the IPv4 ranges, edges included", () => {
    const list = new BlockList();
    for (const c of REFUSED_IPV4_CIDRS) {
      const [net, bits] = c.split('/');
      list.addSubnet(net!, Number(bits), 'ipv4');
    }
    const probes: string[] = [];
    for (const c of REFUSED_IPV4_CIDRS) {
      const [net, bits] = c.split('/');
      const base = net!.split('.').reduce((a, p) => a * 256 + Number(p), 0);
      const size = 2 ** (32 - Number(bits));
      for (const a of [base - 1, base, base + 1, base + size - 1, base + size]) {
        if (a >= 0 && a < 2 ** 32)
          probes.push([24, 16, 8, 0].map((s) => Math.floor(a / 2 ** s) % 256).join('.'));
      }
    }
    // And 2,000 more, spread over the whole space (a fixed sequence, so a failure repeats).
    let x = 12345;
    for (let i = 0; i < 2000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      probes.push([24, 16, 8, 0].map((s) => (x >>> s) & 255).join('.'));
    }
    for (const ip of probes) {
      expect(isIP(ip)).toBe(4);
      const refusedByNode = list.check(ip, 'ipv4');
      const loopback = ip.startsWith('127.');
      expect(serviceUrlRefusal(`https://${ip}/`) !== null, ip).toBe(refusedByNode && !loopback);
      // The same address inside IPv6 gets the same answer.
      expect(serviceUrlRefusal(`https://[::ffff:${ip}]/`) !== null, `::ffff:${ip}`).toBe(refusedByNode);
    }
  });

  it('gives the origin a key is bound to: scheme, host and port, the default port left out', () => {
    expect(serviceOrigin('https://apibara.tech/api/v1/vehicle-auction')).toBe('https://apibara.tech');
    expect(serviceOrigin('https://APIBARA.tech:443/other/path?x=1')).toBe('https://apibara.tech');
    expect(serviceOrigin('http://127.0.0.1:8787/api')).toBe('http://127.0.0.1:8787');
    expect(serviceOrigin('http://127.0.0.1:8788/api')).not.toBe(serviceOrigin('http://127.0.0.1:8787/api'));
    expect(serviceOrigin('not a url')).toBeNull();
  });
});
