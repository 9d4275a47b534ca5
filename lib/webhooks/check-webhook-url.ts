// Webhook URLs are fetched by the server, so a client could point them at the server's own network
// (SSRF). checkWebhookUrl is called when a send is accepted and again at each delivery: the URL must
// be http(s), and unless WEBHOOK_ALLOW_PRIVATE every address its host resolves to must be public.
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

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", includes the unspecified 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64 maps onto IPv4, whose private ranges it would reach
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** False for loopback, private, link-local, CGNAT, unspecified, multicast and reserved addresses (IPv4-mapped IPv6 included). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return !blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

function refuse(description: string): AppError {
  return AppError.validation([{ field: "webhook_url", description }]);
}

/** Parses, resolves and vets a webhook URL; throws a VALIDATION_ERROR naming `webhook_url`. */
export async function checkWebhookUrl(text: string): Promise<CheckedWebhookUrl> {
  const url = parseWebhookUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) as 4 | 6 }] : await resolve(host);
  if (!getEnv().WEBHOOK_ALLOW_PRIVATE) {
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused) throw refuse(`must not point at a private, loopback or link-local address (${url.hostname} is ${refused.address})`);
  }
  return { url, addresses };
}

/** The syntax half of the check (no DNS): an absolute http(s) URL of sane length. */
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
