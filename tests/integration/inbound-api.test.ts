// The inbound endpoints over real HTTP against a server process that runs the carrier connections
// and the SMSC simulator: listing and reading an account's inbound messages (its own only), named
// filter errors, and the sandbox, whose message travels from the simulator over a real SMPP bind.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/keys/create-api-key";
import { assignInboundNumber } from "@/lib/inbound/inbound-numbers";
import { storeMobileOriginated } from "@/lib/inbound/store-inbound";
import { mobileOriginatedFromDeliverSm } from "@/lib/smpp/mobile-originated";
import { inboundListEnvelopeSchema } from "@/lib/api/inbound/inbound-schemas";
import { inboundMessageSchema } from "@/lib/inbound/serialize-inbound";
import { expectKitError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";
import { waitFor } from "../helpers/delivery";

const { api } = useApiServer({ SMSC_SIMULATOR: "on", SMSC_SIMULATOR_PORT: "0", RUN_DISPATCHER: "true", SMSC_SIMULATOR_DLR_DELAY_MS: "50" });

let acme: SeededAccount;
let other: SeededAccount;
let acmeTestToken: string;
const NUMBER = "+263780000201";

async function receive(from: string, to: string, text: string, at: Date) {
  const mo = mobileOriginatedFromDeliverSm({
    source_addr_ton: 1,
    source_addr_npi: 1,
    source_addr: from,
    dest_addr_ton: 1,
    dest_addr_npi: 1,
    destination_addr: to,
    esm_class: 0,
    data_coding: 0,
    short_message: Buffer.from(text, "latin1"),
  });
  const outcome = await storeMobileOriginated({ operator: "econet", mo, receivedAt: at });
  if (outcome.kind !== "stored") throw new Error(`not stored: ${outcome.kind}`);
  return outcome.message;
}

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme" });
  other = await seedAccount({ name: "Other" });
  acmeTestToken = (await createApiKey({ accountId: acme.accountId, name: "sandbox", mode: "test", actor: "test" })).token;
  await assignInboundNumber({ accountId: acme.accountId, number: NUMBER, operator: null, actor: "test" });
  await assignInboundNumber({ accountId: other.accountId, number: "+263780000202", operator: null, actor: "test" });
  const base = Date.parse("2026-03-01T00:00:00.000Z");
  for (let index = 0; index < 5; index++) {
    await receive(index % 2 === 0 ? "263771000001" : "263771000002", "263780000201", `hello ${index}`, new Date(base + index * 60_000));
  }
  await receive("263771000003", "263780000202", "for other", new Date(base));
});

describe("GET /api/v1/inbound", () => {
  it("lists the account's inbound messages newest first, page by page", async () => {
    const first = await api("GET", "/api/v1/inbound?limit=2", { token: acme.token });
    expect(first.status).toBe(200);
    const page = inboundListEnvelopeSchema.parse(first.body);
    expect(page.data.map((message) => message.message)).toEqual(["hello 4", "hello 3"]);
    expect(page.data[0]).toMatchObject({ from: "+263771000001", to: NUMBER, operator: "econet", encoding: "gsm7", segments: 1 });
    const bodies = page.data.map((message) => message.message);
    let cursor = page.next_cursor;
    while (cursor) {
      const next = inboundListEnvelopeSchema.parse(
        (await api("GET", `/api/v1/inbound?limit=2&cursor=${cursor}`, { token: acme.token })).body,
      );
      bodies.push(...next.data.map((message) => message.message));
      cursor = next.next_cursor;
    }
    expect(bodies).toEqual(["hello 4", "hello 3", "hello 2", "hello 1", "hello 0"]);
  });

  it("filters by from (any written form), to and received time", async () => {
    const from = await api("GET", "/api/v1/inbound?from=0771000002", { token: acme.token });
    expect(from.body.data.map((message: { message: string }) => message.message)).toEqual(["hello 3", "hello 1"]);
    const window = await api("GET", "/api/v1/inbound?received_after=2026-03-01T00:01:00Z&received_before=2026-03-01T00:03:00Z", {
      token: acme.token,
    });
    expect(window.body.data.map((message: { message: string }) => message.message)).toEqual(["hello 2", "hello 1"]);
    const to = await api("GET", "/api/v1/inbound?to=263780000202", { token: acme.token });
    expect(to.body.data).toEqual([]);
  });

  it("filters by a sender the carrier gave as a name, as the message shows it", async () => {
    await receive("Acme", "263780000202", "from a named sender", new Date("2026-02-01T00:00:00.000Z"));
    const named = await api("GET", "/api/v1/inbound?from=Acme", { token: other.token });
    expect(named.status).toBe(200);
    expect(named.body.data.map((message: { from: string; message: string }) => [message.from, message.message])).toEqual([
      ["Acme", "from a named sender"],
    ]);
  });

  it("names each bad filter in the kit shape", async () => {
    const call = await api("GET", "/api/v1/inbound?from=%20&received_after=yesterday&limit=0&cursor=zz", { token: acme.token });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors.map((error: { field: string }) => error.field).sort()).toEqual([
      "cursor",
      "from",
      "limit",
      "received_after",
    ]);
    const yearTenThousand = Buffer.from("+010000-01-01T00:00:00.000Z|0193c6a0-0000-7000-8000-000000000000").toString("base64url");
    const outOfRange = await api("GET", `/api/v1/inbound?received_after=9999-12-31T23:59:59-23:59&cursor=${yearTenThousand}`, {
      token: acme.token,
    });
    expectKitError(outOfRange, 400, "VALIDATION_ERROR");
    expect(outOfRange.body.error.validation_errors.map((error: { field: string }) => error.field).sort()).toEqual([
      "cursor",
      "received_after",
    ]);
    const nul = await api("GET", "/api/v1/inbound?to=%00", { token: acme.token });
    expectKitError(nul, 400, "VALIDATION_ERROR");
    expect(nul.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["to"]);
    const repeated = await api("GET", "/api/v1/inbound?from=0771234567&from=0771234568", { token: acme.token });
    expectKitError(repeated, 400, "VALIDATION_ERROR");
    expect(repeated.body.error.validation_errors).toEqual([{ field: "from", description: "must be given once" }]);
  });

  it("reads one of the account's messages, and answers 404 for another account's", async () => {
    const list = await api("GET", "/api/v1/inbound?limit=1", { token: acme.token });
    const id = list.body.data[0].id;
    const one = await api("GET", `/api/v1/inbound/${id}`, { token: acme.token });
    expect(one.status).toBe(200);
    expect(inboundMessageSchema.parse(one.body.data)).toMatchObject({ id, message: "hello 4" });
    expectKitError(await api("GET", `/api/v1/inbound/${id}`, { token: other.token }), 404, "NOT_FOUND");
    expectKitError(await api("GET", "/api/v1/inbound/not-a-uuid", { token: acme.token }), 400, "BAD_REQUEST");
    expectKitError(await api("GET", "/api/v1/inbound", {}), 401, "UNAUTHORIZED");
  });
});

describe("POST /api/v1/inbound/simulate", () => {
  it("with a test key, answers 202 and the simulator's deliver_sm reaches the inbox", async () => {
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263712345678", to: NUMBER, message: "Ndeipi from the sandbox 😀" },
    });
    expect(call.status).toBe(202);
    expect(call.body.data).toEqual({ from: "+263712345678", to: NUMBER, message: "Ndeipi from the sandbox 😀", operator: "netone" });
    const found = await waitFor(async () => {
      const list = await api("GET", "/api/v1/inbound?from=%2B263712345678", { token: acmeTestToken });
      return list.body.data.length > 0 && list.body.data;
    }, "the simulated inbound message");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ message: "Ndeipi from the sandbox 😀", operator: "netone", encoding: "ucs2", to: NUMBER });
    expect(await db().inboundMessage.findUniqueOrThrow({ where: { id: found[0].id } })).toMatchObject({ mode: "test" });
  });

  it("keeps sandbox messages to test keys and carriers' messages to live keys", async () => {
    await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263771230001", to: NUMBER, message: "test only" },
    });
    const sandbox = await waitFor(async () => {
      const list = await api("GET", "/api/v1/inbound?from=%2B263771230001", { token: acmeTestToken });
      return list.body.data[0];
    }, "the sandbox message");
    const live = (await api("GET", "/api/v1/inbound?limit=1000", { token: acme.token })).body.data;
    expect(live.map((message: { message: string }) => message.message).sort()).toEqual([
      "hello 0",
      "hello 1",
      "hello 2",
      "hello 3",
      "hello 4",
    ]);
    const test = (await api("GET", "/api/v1/inbound?limit=1000", { token: acmeTestToken })).body.data;
    expect(test.map((message: { message: string }) => message.message)).toContain("test only");
    expect(test.map((message: { message: string }) => message.message)).not.toContain("hello 0");

    expect((await api("GET", `/api/v1/inbound/${sandbox.id}`, { token: acmeTestToken })).status).toBe(200);
    expectKitError(await api("GET", `/api/v1/inbound/${sandbox.id}`, { token: acme.token }), 404, "NOT_FOUND");
    expectKitError(await api("GET", `/api/v1/inbound/${live[0].id}`, { token: acmeTestToken }), 404, "NOT_FOUND");
  });

  it("applies a sandbox STOP to the account's one opt-out list", async () => {
    await api("POST", "/api/v1/inbound/simulate", { token: acmeTestToken, body: { from: "+263771230002", to: NUMBER, message: "stop" } });
    const entry = await waitFor(
      () => db().optOut.findFirst({ where: { accountId: acme.accountId, number: "+263771230002" } }),
      "the sandbox opt-out",
    );
    expect(entry).toMatchObject({ actor: "keyword:STOP" });
    const refused = await api("POST", "/api/v1/sms", { token: acme.token, body: { to: "+263771230002", message: "hi", from: "ACME" } });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain("RECIPIENT_OPTED_OUT");
  });

  it.each([
    ["a NUL", "stop\u0000now"],
    ["half a surrogate pair", "stop \ud800"],
  ])("refuses a message with %s, naming it, and queues nothing", async (_, message) => {
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263771234567", to: NUMBER, message },
    });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([
      { field: "message", description: "must not contain NUL characters or unpaired surrogates" },
    ]);
  });

  it("refuses a message of only spaces and line breaks as blank, naming it, and queues nothing", async () => {
    const before = await db().inboundSimulation.count();
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263771234567", to: NUMBER, message: "  \n\t \r\n " },
    });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([{ field: "message", description: "cannot be blank" }]);
    expect(await db().inboundSimulation.count()).toBe(before);
  });

  it("refuses a live key with 403", async () => {
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acme.token,
      body: { from: "+263771234567", to: NUMBER, message: "hi" },
    });
    expectKitError(call, 403, "FORBIDDEN");
  });

  it("names a `to` that is not one of the account's numbers, and a bad `from`", async () => {
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "12", to: "+263780000202", message: "hi" },
    });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["from"]);
    const notOurs = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263771234567", to: "+263780000202", message: "" },
    });
    expectKitError(notOurs, 400, "VALIDATION_ERROR");
    expect(notOurs.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["to", "message"]);
  });
});

describe("POST /api/v1/inbound/simulate on a number shared between accounts", () => {
  const SHARED = "+263780000203";

  beforeAll(async () => {
    await assignInboundNumber({ accountId: acme.accountId, number: SHARED, operator: null, actor: "test" });
    await assignInboundNumber({ accountId: other.accountId, number: SHARED, operator: "econet", actor: "test" });
  });

  it("refuses `to` on a carrier where another account's assignment receives the number, and queues nothing", async () => {
    const before = await db().inboundSimulation.count();
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263771234567", to: SHARED, message: "for acme" },
    });
    expectKitError(call, 400, "VALIDATION_ERROR");
    expect(call.body.error.validation_errors).toEqual([{ field: "to", description: "is not one of the account's numbers on econet" }]);
    expect(await db().inboundSimulation.count()).toBe(before);
  });

  it("accepts `to` on a carrier where the account's all-carrier assignment receives it", async () => {
    const call = await api("POST", "/api/v1/inbound/simulate", {
      token: acmeTestToken,
      body: { from: "+263711234567", to: SHARED, message: "netone reply" },
    });
    expect(call.status).toBe(202);
    const stored = await waitFor(() => db().inboundMessage.findFirst({ where: { to: SHARED, body: "netone reply" } }), "the netone reply");
    expect(stored.accountId).toBe(acme.accountId);
  });
});
