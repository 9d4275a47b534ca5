// One webhook POST to addresses checkWebhookUrl already vetted: the connection goes to those
// addresses (no second DNS answer, so no rebinding to a private address), TLS still verifies the
// URL's host name, redirects are not followed, and the whole exchange has one deadline.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { CheckedWebhookUrl } from "./check-webhook-url";

/** At most this much of a response body is read (and then ignored). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export function postWebhook(target: CheckedWebhookUrl, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
  const [pinned] = target.addresses;
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const transport = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      target.url,
      {
        method: "POST",
        lookup,
        headers: {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "Tumira-Webhooks/1",
          ...headers,
        },
      },
      (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("close", () => {
          clearTimeout(deadline);
          resolve(response.statusCode ?? 0);
        });
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`no response within ${timeoutMs} ms`)), timeoutMs);
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    request.end(body);
  });
}
