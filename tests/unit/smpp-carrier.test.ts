// Carrier configuration, submit_sm encoding and pacing: the pure parts of the SMPP client.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadEnv } from "@/lib/env";
import { carrierConfigs, parseCarrierUrl } from "@/lib/smpp/carrier-config";
import { buildSubmitParts, concatenationReference } from "@/lib/smpp/build-submit-parts";
import { decodeGsm7, decodeUcs2, segmentMessage } from "@/lib/messages/segments";
import { ThroughputLimiter } from "@/lib/smpp/throughput-limiter";
import os from "node:os";

describe("carrier URLs", () => {
  it("parses credentials, host, port and the query options", () => {
    expect(parseCarrierUrl("econet", "smpp://tumira:s%40cret@smsc.econet.example:2776?system_type=VMA&tps=50&window=5")).toEqual({
      operator: "econet",
      host: "smsc.econet.example",
      port: 2776,
      systemId: "tumira",
      password: "s@cret",
      systemType: "VMA",
      tps: 50,
      window: 5,
      simulated: false,
    });
    expect(parseCarrierUrl("netone", "smpp://id:pw@10.0.0.5")).toMatchObject({ port: 2775, tps: 100, window: 10, systemType: "" });
  });

  it("names the variable and the problem in every refusal", () => {
    expect(() => parseCarrierUrl("telecel", "http://a:b@host:1")).toThrow("SMPP_TELECEL: the scheme must be smpp://");
    expect(() => parseCarrierUrl("econet", "smpp://host:2775")).toThrow("SMPP_ECONET: needs a system_id");
    expect(() => parseCarrierUrl("econet", "smpp://id:toolongpassword@host")).toThrow("SMPP_ECONET: password is at most 8 characters");
    expect(() => parseCarrierUrl("econet", "smpp://id:pw@host?tps=0")).toThrow("SMPP_ECONET: tps must be at least 1");
    expect(() => parseCarrierUrl("econet", "smpp://id:pw@host?window=x")).toThrow("SMPP_ECONET: window must be a whole number");
    expect(() => parseCarrierUrl("econet", "smpp://id:pw@host?tps=abc")).toThrow("SMPP_ECONET: tps must be a whole number");
    expect(() => parseCarrierUrl("econet", "smpp://id:pw@host?tps=")).toThrow("SMPP_ECONET: tps must be at least 1");
  });

  it("points carriers without a URL at the simulator", () => {
    const env = loadEnv({
      DATA_DIR: os.tmpdir(),
      APP_SECRET: "x".repeat(32),
      NEXTAUTH_SECRET: "y".repeat(32),
      SMPP_NETONE: "smpp://n1:pw@smsc.netone.example:2775",
      SMSC_SIMULATOR_PORT: "2999",
      SMSC_SIMULATOR_TPS: "300",
    });
    const configs = carrierConfigs(env);
    expect(configs.netone.binds).toMatchObject([{ host: "smsc.netone.example", simulated: false, role: "primary" }]);
    expect(configs.econet.binds).toHaveLength(1);
    expect(configs.econet.binds[0]).toMatchObject({
      role: "primary",
      host: "127.0.0.1",
      port: 2999,
      systemId: "econet",
      password: "tumira",
      tps: 300,
      simulated: true,
    });
  });
});

describe("several binds per carrier", () => {
  const base = { DATA_DIR: os.tmpdir(), APP_SECRET: "x".repeat(32), NEXTAUTH_SECRET: "y".repeat(32) };

  it("reads a list of URLs used together: one cap for all, each bind its own window", () => {
    const env = loadEnv({
      ...base,
      SMPP_ECONET: "smpp://e1:pw@smsc-a.example:2775?tps=80&window=5, smpp://e1:pw@smsc-b.example:2776?window=20",
    });
    const econet = carrierConfigs(env).econet;
    expect(econet).toMatchObject({ mode: "shared", tps: 80 });
    expect(econet.binds.map((bind) => [bind.host, bind.port, bind.role, bind.tps, bind.window])).toEqual([
      ["smsc-a.example", 2775, "shared", 80, 5],
      ["smsc-b.example", 2776, "shared", 80, 20],
    ]);
  });

  it("reads a primary and its standby with their failover and giveback times", () => {
    const env = loadEnv({
      ...base,
      SMPP_NETONE: "smpp://n1:pw@primary.example?tps=50,smpp://n1:pw@standby.example?tps=20",
      SMPP_NETONE_MODE: "failover",
      SMPP_NETONE_FAILOVER_AFTER_SECONDS: "45",
      SMPP_NETONE_GIVEBACK_HOLD_SECONDS: "5",
    });
    const netone = carrierConfigs(env).netone;
    expect(netone).toMatchObject({ mode: "failover", failoverAfterMs: 45_000, givebackHoldMs: 5_000 });
    expect(netone.binds.map((bind) => [bind.host, bind.role, bind.tps])).toEqual([
      ["primary.example", "primary", 50],
      ["standby.example", "standby", 20],
    ]);
  });

  it("refuses a shared carrier whose binds name different caps, an empty entry, and a bad mode", () => {
    const shared = { ...base, SMPP_TELECEL: "smpp://t:pw@a.example?tps=50,smpp://t:pw@b.example?tps=60" };
    expect(() => carrierConfigs(loadEnv(shared))).toThrow("SMPP_TELECEL: tps is the carrier's cap shared by its binds");
    expect(() => carrierConfigs(loadEnv({ ...base, SMPP_TELECEL: "smpp://t:pw@a.example,,smpp://t:pw@b.example" }))).toThrow(
      "SMPP_TELECEL: an empty URL in the list",
    );
    expect(() => loadEnv({ ...base, SMPP_TELECEL_MODE: "both" })).toThrow(/SMPP_TELECEL_MODE/);
    expect(() => loadEnv({ ...base, SMPP_TELECEL_FAILOVER_AFTER_SECONDS: "0" })).toThrow(/SMPP_TELECEL_FAILOVER_AFTER_SECONDS/);
  });
});

describe("submit_sm parts", () => {
  it("sends a short GSM-7 message as one part without UDH", () => {
    const [part, ...rest] = buildSubmitParts({ id: "m1", to: "+263771234567", senderId: "ACME", body: "Hi {you} €5" });
    expect(rest).toHaveLength(0);
    expect(part).toMatchObject({
      destination_addr: "263771234567",
      source_addr: "ACME",
      source_addr_ton: 5,
      esm_class: 0,
      data_coding: 0,
      registered_delivery: 1,
    });
    expect(decodeGsm7(part.short_message)).toBe("Hi {you} €5");
  });

  it("numbers concatenated parts with one reference derived from the message id, as pricing counted them", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 700 }), fc.uuid(), (body, id) => {
        const segmented = segmentMessage(body);
        const parts = buildSubmitParts({ id, to: "+263771234567", senderId: "263771000000", body });
        expect(parts).toHaveLength(segmented.segments);
        const decode = segmented.encoding === "gsm7" ? decodeGsm7 : decodeUcs2;
        parts.forEach((part, index) => {
          expect(part.data_coding).toBe(segmented.encoding === "gsm7" ? 0 : 8);
          expect(part.source_addr_ton).toBe(1);
          if (parts.length === 1) return void expect(decode(part.short_message)).toBe(segmented.parts[0]);
          expect(part.esm_class).toBe(0x40);
          expect([...part.short_message.subarray(0, 6)]).toEqual([5, 0, 3, concatenationReference(id), parts.length, index + 1]);
          expect(decode(part.short_message.subarray(6))).toBe(segmented.parts[index]);
          expect(part.short_message.length).toBeLessThanOrEqual(160);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe("throughput limiter", () => {
  it("never lets more than the limit through in any window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 200 }),
        (limit, gaps) => {
          const limiter = new ThroughputLimiter(limit, 1000);
          let now = 0;
          const taken: number[] = [];
          for (const gap of gaps) {
            now += gap;
            if (limiter.tryTake(now)) taken.push(now);
          }
          for (let i = limit; i < taken.length; i++) expect(taken[i] - taken[i - limit]).toBeGreaterThanOrEqual(1000);
        },
      ),
    );
  });

  it("keeps to a changed limit in every window, counting the sends made before the change", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ limit: fc.integer({ min: 1, max: 20 }), gaps: fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 60 }) }),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        (phases) => {
          const limiter = new ThroughputLimiter(phases[0].limit, 1000);
          let now = 0;
          const taken: { at: number; limit: number }[] = [];
          for (const { limit, gaps } of phases) {
            limiter.setLimit(limit);
            expect(limiter.limit).toBe(limit);
            for (const gap of gaps) {
              now += gap;
              if (limiter.tryTake(now)) taken.push({ at: now, limit });
            }
          }
          // Each send is the (limit+1)th in no window under the limit in force when it was let through.
          taken.forEach(({ at, limit }, index) => {
            if (index >= limit) expect(at - taken[index - limit].at).toBeGreaterThanOrEqual(1000);
          });
        },
      ),
    );
  });

  it("says how long to wait, and holds everything back while paused", () => {
    const limiter = new ThroughputLimiter(2, 1000);
    expect(limiter.tryTake(0)).toBe(true);
    expect(limiter.tryTake(10)).toBe(true);
    expect(limiter.tryTake(20)).toBe(false);
    expect(limiter.waitMs(20)).toBe(980);
    expect(limiter.tryTake(1000)).toBe(true);
  });

  it("spreads the sends over the window when given slices: a backlog goes out evenly, not in a burst", () => {
    const limiter = new ThroughputLimiter(100, 1000, 100);
    expect(limiter.tryTake(0)).toBe(true);
    expect(limiter.tryTake(5)).toBe(false);
    expect(limiter.waitMs(5)).toBe(5);
    const taken = [0];
    for (let now = 1; now < 3000; now++) if (limiter.tryTake(now)) taken.push(now);
    for (let i = 1; i < taken.length; i++) expect(taken[i] - taken[i - 1]).toBeGreaterThanOrEqual(10);
    expect(taken.filter((at) => at < 1000)).toHaveLength(100);
    const uncapped = new ThroughputLimiter(1_000_000, 1000, 100);
    for (let i = 0; i < 5000; i++) expect(uncapped.tryTake(0)).toBe(true);
  });
});
