import { describe, expect, it } from "vitest";
import { describeFirstLogin, serverUrl } from "@/lib/server/first-login";

describe("the address the server prints", () => {
  it("is localhost for a server listening on every interface", () => {
    expect(serverUrl("0.0.0.0", 3000)).toBe("http://localhost:3000");
    expect(serverUrl("::", 3000)).toBe("http://localhost:3000");
  });

  it("is the host a server listens on otherwise, an IPv6 address in brackets", () => {
    expect(serverUrl("127.0.0.1", 3000)).toBe("http://127.0.0.1:3000");
    expect(serverUrl("192.168.1.20", 8080)).toBe("http://192.168.1.20:8080");
    expect(serverUrl("::1", 3000)).toBe("http://[::1]:3000");
    expect(serverUrl("gateway.internal", 3000)).toBe("http://gateway.internal:3000");
  });

  it("names the dashboard's keys page at that address", () => {
    const demo = { accountId: "acc-1", email: "demo@tumira.local", password: "secret-once" };
    const text = describeFirstLogin({ demo, adminMissing: false }, serverUrl("127.0.0.1", 3000), { dashboard: true });
    expect(text).toContain("Tumira is running at http://127.0.0.1:3000");
    expect(text).toContain("at http://127.0.0.1:3000/dashboard/keys");
  });
});
