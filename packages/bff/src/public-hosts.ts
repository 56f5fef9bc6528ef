/**
 * Which hosts are on the public internet: not loopback, not a private, link-local, site-local,
 * NAT64-local, mapped or compatible address in any IPv4 or IPv6 form, not a name under a private
 * suffix (`.lan`, `.home.arpa`, `.internal`…) or a wildcard-DNS service that resolves to one.
 * Judged by the name and the address as written; nothing is resolved.
 */
import ipaddr from 'ipaddr.js';

/** A host as a name compares: without IPv6 brackets, in lower case, without the root's trailing dot. */
export const normalHost = (host: string): string =>
  host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopback(host: string): boolean {
  const h = normalHost(host);
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Names that never lead to the public internet: special-use and private suffixes (RFC 6761,
 * 6762, 8375, ICANN's `.internal`) and those that intranets commonly use.
 */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'lan', 'home.arpa', 'internal', 'intranet', 'corp', 'home', 'localdomain', 'private'];

/**
 * Public wildcard-DNS services: any name under them resolves to the address written in it
 * (`127.0.0.1.nip.io`, `10-0-0-1.sslip.io`, or in hex), so a name there is a private address
 * in disguise.
 */
const WILDCARD_DNS = [
  'nip.io',
  'sslip.io',
  'xip.io',
  'nip.direct',
  'traefik.me',
  'localtest.me',
  'lvh.me',
  'vcap.me',
  'lacolhost.com',
  'fuf.me',
  'localhost.direct',
];

const under = (host: string, suffixes: readonly string[]) => suffixes.some((s) => host === s || host.endsWith(`.${s}`));

/** NAT64's local-use prefix (RFC 8215): its addresses lead into a private network. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * Whether an IP address is one of the public internet's: IPv4 outside every special range
 * (private, shared, loopback, link-local and cloud metadata, reserved, documentation...), IPv6
 * global unicast. An IPv4 address in IPv6 clothing is judged as IPv4 where it can reach one
 * (NAT64's well-known prefix); IPv4-mapped and IPv4-compatible forms, 6to4 and Teredo are never
 * public here (write the IPv4 address itself), nor NAT64's local-use prefix.
 */
export function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  const parts = v6.parts;
  // ::a.b.c.d, IPv4-compatible (deprecated): the first 96 bits are zero.
  if (parts.slice(0, 6).every((p) => p === 0)) return false;
  if (v6.match(LOCAL_NAT64)) return false;
  if (v6.range() === 'rfc6052') {
    const v4 = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
    return isPublicAddress(v4);
  }
  return v6.range() === 'unicast';
}

/** An IPv4 address a name carries in its labels (`127.0.0.1.example`, `10-0-0-1.example`), if any. */
function embeddedIpv4(host: string): ipaddr.IPv4 | null {
  const m = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=$|[.-])/.exec(host);
  if (!m) return null;
  const octets = m.slice(1, 5).map(Number);
  return octets.every((o) => o <= 255) ? new ipaddr.IPv4(octets) : null;
}

/**
 * Whether `host` (a URL's hostname) is a name or address on the public internet: not loopback
 * or `localhost`, no private, shared, link-local (cloud metadata), site-local, unique-local,
 * reserved or unspecified address in any IPv4 or IPv6 form, no name under a private suffix
 * (`.local`, `.lan`, `.home.arpa`, `.internal`...) or a wildcard-DNS service (`nip.io`,
 * `sslip.io`...), no name carrying a private IPv4 address in its labels, and no single-label
 * name (an intranet host).
 */
export function isPublicHost(host: string): boolean {
  const h = normalHost(host);
  if (!h || isLoopback(h)) return false;
  if (ipaddr.isValid(h)) {
    // Only the four-part dotted form is an address here (URLs already write every IPv4 so).
    if (!h.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(h)) return false;
    return isPublicAddress(ipaddr.parse(h));
  }
  if (under(h, PRIVATE_SUFFIXES) || under(h, WILDCARD_DNS)) return false;
  const embedded = embeddedIpv4(h);
  if (embedded && !isPublicAddress(embedded)) return false;
  return h.includes('.');
}
