// checkWebhookUrl, used when a send is accepted and again at delivery: only http(s), and (unless
// WEBHOOK_ALLOW_PRIVATE) only hosts whose every address is public. Real DNS (localhost resolves).
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { checkWebhookUrl, isPublicAddress } from "@/lib/webhooks/check-webhook-url";

function allowPrivate(value: "true" | "false") {
  process.env.WEBHOOK_ALLOW_PRIVATE = value;
  resetEnvForTests();
}

afterEach(() => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE;
  resetEnvForTests();
});

describe("isPublicAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.1",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
    "not an address",
    // IPv4-compatible, 6to4 and site-local forms of private addresses; documentation ranges
    "::127.0.0.1",
    "::7f00:1",
    "2002:7f00:1::",
    "2002:a9fe:a9fe::",
    "fec0::1",
    "192.0.2.1",
    "198.51.100.7",
    "203.0.113.9",
    "2001:db8::1",
    "2001:0:4136:e378::1",
    "192.88.99.1",
  ])("refuses %s", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "2002:808:808::1",
    "64:ff9b::8.8.8.8",
  ])("allows %s", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe("checkWebhookUrl", () => {
  it("returns the URL and the addresses to connect to", async () => {
    allowPrivate("false");
    const checked = await checkWebhookUrl("https://93.184.216.34:8443/hooks?x=1");
    expect(checked.url.href).toBe("https://93.184.216.34:8443/hooks?x=1");
    expect(checked.addresses).toEqual([{ address: "93.184.216.34", family: 4 }]);
  });

  it.each([
    ["http://localhost:3000/hook", /private, loopback or link-local address \(localhost resolves to (127\.0\.0\.1|::1)\)/],
    ["http://127.0.0.1/hook", /private, loopback or link-local address \(127\.0\.0\.1\)/],
    ["http://[::ffff:169.254.169.254]/", /private/],
    ["http://2130706433/", /private/], // 127.0.0.1 as one decimal number
    ["http://0x7f.1/", /private/],
    ["http://[::127.0.0.1]/", /private/],
    ["http://[2002:a9fe:a9fe::]/", /private/],
    ["http://[fec0::1]/", /private/],
    ["http://192.0.2.1/", /private/],
  ])("refuses %s when private addresses are not allowed", async (url, reason) => {
    allowPrivate("false");
    await expect(checkWebhookUrl(url)).rejects.toMatchObject({
      code: "VALIDATION_ERROR",
      options: { fields: [{ field: "webhook_url", description: expect.stringMatching(reason) }] },
    });
  });

  it.each([
    ["not a url", /valid http or https URL/],
    ["javascript:alert(1)", /valid http or https URL/],
    ["file:///etc/passwd", /valid http or https URL/],
    ["https://user:secret@example.com/hook", /credentials/],
    ["http://8.8.8.8:0/hook", /port 0/],
    [`https://example.com/${"a".repeat(2100)}`, /at most 2048 characters/],
    [`http://8.8.8.8/${"ü".repeat(1000)}`, /at most 2048 characters/],
    ["https://no-such-host.invalid/hook", /could not be resolved/],
  ])("refuses %s in any mode", async (url, reason) => {
    allowPrivate("true");
    await expect(checkWebhookUrl(url)).rejects.toMatchObject({
      options: { fields: [{ field: "webhook_url", description: expect.stringMatching(reason) }] },
    });
  });

  it("allows loopback when WEBHOOK_ALLOW_PRIVATE is true (development, tests)", async () => {
    allowPrivate("true");
    const checked = await checkWebhookUrl("http://127.0.0.1:9999/hook");
    expect(checked.addresses).toEqual([{ address: "127.0.0.1", family: 4 }]);
  });
});
