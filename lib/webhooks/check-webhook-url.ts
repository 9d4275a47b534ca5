// Webhook URLs are fetched by the server, so a client could point them at the server's own network
// (SSRF). checkWebhookUrl is called when a send is accepted and again at each delivery: the URL must
// be http(s), and unless WEBHOOK_ALLOW_PRIVATE every address its host resolves to must be globally
// reachable unicast: an allowlist, so a range nobody thought to block is refused too.
// Exports: checkWebhookUrl, parseWebhookUrl (syntax only), isPublicAddress, WEBHOOK_URL_MAX_LENGTH,
// type CheckedWebhookUrl.
// Delivery should connect to `addresses` (not resolve again), so a DNS answer that changes between
// the check and the connection (rebinding) cannot reach a private address.
import dns from "node:dns/promises";
import net from "node:net";
import { AppError } from "@/lib/errors";
import { getEnv } from "@/lib/env";

export const WEBHOOK_URL_MAX_LENGTH = 2048;
const DNS_TIMEOUT_MS = 3000;

export type CheckedWebhookUrl = { url: URL; addresses: { address: string; family: 4 | 6 }[] };

/** IPv4 ranges that are not globally reachable (IANA's special-purpose registry). */
const NON_GLOBAL_IPV4 = blockList("ipv4", [
  ["0.0.0.0", 8], // "this network", includes the unspecified 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
]);
/** IPv6 global unicast is 2000::/3; everything else (loopback, IPv4-compatible, site- and link-local, unique local, multicast) is refused. */
const GLOBAL_UNICAST_IPV6 = blockList("ipv6", [["2000::", 3]]);
/** Parts of 2000::/3 that are not globally reachable. */
const NON_GLOBAL_IPV6 = blockList("ipv6", [
  ["2001::", 23], // IETF protocol assignments, Teredo among them
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
]);

function blockList(family: "ipv4" | "ipv6", subnets: ReadonlyArray<readonly [string, number]>): net.BlockList {
  const list = new net.BlockList();
  for (const [network, prefix] of subnets) list.addSubnet(network, prefix, family);
  return list;
}

/**
 * True only for a globally reachable unicast address. IPv6 forms that carry an IPv4 address
 * (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !NON_GLOBAL_IPV4.check(address, "ipv4");
  if (family !== 6) return false;
  const embedded = embeddedIpv4(address);
  if (embedded) return isPublicAddress(embedded);
  return GLOBAL_UNICAST_IPV6.check(address, "ipv6") && !NON_GLOBAL_IPV6.check(address, "ipv6");
}

/** The IPv4 address an IPv4-mapped, NAT64 or 6to4 IPv6 address carries, if it is one of those. */
function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  const isZero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (isZero(0, 5) && groups[5] === 0xffff) return ipv4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && isZero(2, 6)) return ipv4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return ipv4(groups[1], groups[2]);
  return null;
}

/** The eight 16-bit groups of a valid IPv6 address (with "::" expanded and a trailing dotted IPv4 converted). */
function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, "");
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const before = parse(head);
  const after = parse(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

function refuse(description: string, field = "webhook_url"): AppError {
  return AppError.validation([{ field, description }]);
}

/** Parses, resolves and vets a webhook URL; throws a VALIDATION_ERROR naming `field`. */
export async function checkWebhookUrl(text: string, field = "webhook_url"): Promise<CheckedWebhookUrl> {
  try {
    return await vet(text);
  } catch (error) {
    if (field !== "webhook_url" && error instanceof AppError && error.options.fields)
      throw AppError.validation(error.options.fields.map((entry) => ({ ...entry, field })));
    throw error;
  }
}

async function vet(text: string): Promise<CheckedWebhookUrl> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) as 4 | 6 }] : await resolve(host);
  if (!getEnv().WEBHOOK_ALLOW_PRIVATE) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) {
      // A host given as an address names it already; a name is followed by the address it resolved to.
      const where = net.isIP(host) ? url.hostname : `${url.hostname} resolves to ${refused.address}`;
      throw refuse(`must not point at a private, loopback or link-local address (${where})`);
    }
  }
  return { url, addresses };
}

/** The syntax half of the check (no DNS): an absolute http(s) URL of sane length, with a usable port. */
export function parseWebhookUrl(text: string): URL {
  if (text.length > WEBHOOK_URL_MAX_LENGTH) throw refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse("must be a valid http or https URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse("must be a valid http or https URL");
  if (!url.hostname) throw refuse("must be a valid http or https URL");
  if (url.username || url.password) throw refuse("must not contain credentials");
  // Port 0 is not a port anything listens on: every delivery would fail.
  if (url.port === "0") throw refuse("must not use port 0");
  // What is stored and called is the URL as written out again, its non-ASCII percent-encoded.
  if (url.href.length > WEBHOOK_URL_MAX_LENGTH) throw refuse(`must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  return url;
}

async function resolve(host: string): Promise<CheckedWebhookUrl["addresses"]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), DNS_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([dns.lookup(host, { all: true, verbatim: true }), timeout]);
    if (found.length === 0) throw new Error("no addresses");
    return found.map((entry) => ({ address: entry.address, family: entry.family as 4 | 6 }));
  } catch {
    throw refuse(`host ${host} could not be resolved`);
  } finally {
    clearTimeout(timer);
  }
}
