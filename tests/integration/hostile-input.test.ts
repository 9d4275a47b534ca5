// Hostile input over real HTTP against a server process: generated (fast-check) malformed, oversized,
// wrongly typed and injection-shaped bodies, paths and headers to every endpoint. None may answer 5xx;
// every error has its endpoint's shape (spec 7.3: legacy for the single send and reading a message,
// kit elsewhere, kit for 401 always); and nothing is written but what a valid request wrote.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/keys/create-api-key";
import { createWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { kitErrorSchema, legacyErrorSchema } from "@/lib/api/response-schemas";
import { OPENAPI_PATH } from "@/lib/api/openapi/openapi-document";
import { callApi, seedAccount, useApiServer, type ApiCall, type SeededAccount } from "../helpers/api-test-server";

const { url } = useApiServer({ RATE_LIMIT_PER_SECOND: "1000000" });
const RUNS = Number(process.env.HOSTILE_RUNS ?? 400);
/**
 * CI replays one fixed seed, so its verdict never rests on luck (valid requests are a few percent of
 * the generated ones); elsewhere every run explores new inputs. HOSTILE_SEED replays a given seed
 * (fast-check prints the seed of a failing run).
 */
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : process.env.CI ? 20261122 : undefined;

let acme: SeededAccount;
let acmeTestToken: string;
let other: SeededAccount;
let acmeMessageId: string;
/** A key of the other account: revoking it is refused to acme, and valid for the other account's key. */
let victim: { id: string; active: boolean };
/** A webhook endpoint of the other account: rotating and deleting it is refused to acme. */
let victimEndpointId: string;

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", balance: 10_000_000n, senders: ["ACME"] });
  other = await seedAccount({ name: "Other", senders: ["OTHER"] });
  acmeTestToken = (await createApiKey({ accountId: acme.accountId, name: "sandbox", mode: "test", actor: "test" })).token;
  victim = { id: (await createApiKey({ accountId: other.accountId, name: "victim", actor: "test" })).id, active: true };
  victimEndpointId = (
    await createWebhookEndpoint({ accountId: other.accountId, url: "https://93.184.215.14/hook", events: ["balance.low"], actor: "test" })
  ).endpoint.id;
  const sent = await callApi(url(), "POST", "/api/v1/sms", {
    token: acme.token,
    body: { to: "+263771234567", message: "seed", from: "ACME" },
  });
  expect(sent.status).toBe(202);
  acmeMessageId = sent.body.id;
});

// ---------------------------------------------------------------------------------------------
// Generators

const INJECTIONS = [
  "' OR '1'='1",
  '\'; DROP TABLE "Message"; --',
  '" OR ""="',
  "1; SELECT pg_sleep(5)",
  "$1",
  "?",
  "%s%s%n",
  "\u0000",
  "a\u0000b",
  "\uD800",
  "\uFFFF",
  "𝒯𝓊𝓂𝒾𝓇𝒶 🚀👩‍👩‍👧",
  "ﷺ",
  "\u202Eevil",
  "<script>alert(1)</script>",
  "${jndi:ldap://x/a}",
  "../../etc/passwd",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "NaN",
  "Infinity",
  "-0",
  "null",
  "true",
  "[]",
  "{}",
  " ",
  "",
  "\t\n",
  "9".repeat(400),
  "x".repeat(5000),
];

const hostileString = fc.oneof(
  fc.constantFrom(...INJECTIONS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);

const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e308, -1e308, 5e-324, -0, Number.MAX_SAFE_INTEGER + 2, 2 ** 64, -(2 ** 63)),
);

const { hostileValue } = fc.letrec<{ hostileValue: unknown }>((tie) => ({
  hostileValue: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("hostileValue"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom("__proto__", "constructor", "prototype")), tie("hostileValue"), { maxKeys: 4 }),
  ),
}));

const VALID_MSISDNS = ["+263771234567", "263781234567", "0711234567", "+263731234567"];
const msisdn = fc.oneof(fc.constantFrom(...VALID_MSISDNS), hostileString, fc.stringMatching(/^\+?2637[0-9]{8,9}$/));
/** Numbers the opt-out endpoints add and remove: none of the sends' own, so no send is refused for them. */
const OPT_OUT_NUMBERS = ["+263772009001", "0772009002", "263712009003"];
const optOutNumber = fc.oneof(fc.constantFrom(...OPT_OUT_NUMBERS), hostileString);

/** A field: often plausible, often hostile, sometimes missing. */
function field<T>(plausible: fc.Arbitrary<T>) {
  return fc.oneof(
    { weight: 4, arbitrary: plausible },
    { weight: 3, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/**
 * Objects with the endpoint's fields: two in three all plausible, the rest with each field mixed; half
 * of them with stray keys. That keeps valid requests common enough (a few percent of all requests)
 * that every run of the fuzz reaches a success: with one in four plausible and stray keys always, a
 * run of 400 sometimes saw none.
 */
function bodyObject(plausible: Record<string, fc.Arbitrary<unknown>>) {
  const mixed = Object.fromEntries(Object.entries(plausible).map(([name, arbitrary]) => [name, field(arbitrary)]));
  const strayKeys = fc.oneof(fc.constant({}), fc.dictionary(hostileString, hostileValue, { minKeys: 1, maxKeys: 3 }));
  return fc
    .tuple(fc.oneof({ weight: 2, arbitrary: fc.record(plausible) }, { weight: 1, arbitrary: fc.record(mixed) }), strayKeys)
    .map(([known, extra]) => ({ ...extra, ...known }));
}

const RAW_BODIES = [
  "",
  " ",
  "{",
  "}",
  '{"',
  "[",
  "null",
  "true",
  "0",
  '"text"',
  "[]",
  "[{}]",
  "{}",
  "{,}",
  '{"a":}',
  "{'a':1}",
  "\uFEFF{}",
  '{"__proto__":{"admin":true,"status":"hacked"}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"name":"x","name":{"__proto__":null}}',
  `{"to":1e999999,"message":-1e999999,"from":123456789012345678901234567890}`,
  `{"name":${"[".repeat(20_000)}${"]".repeat(20_000)}}`,
  `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
  '{"to":"+263771234567","message":"hi","from":"ACME"', // truncated
  "\u0000\u0000\u0000",
];

type Body = { kind: "json"; value: unknown } | { kind: "text"; text: string } | { kind: "bytes"; bytes: Uint8Array } | { kind: "none" };

function bodyOf(objects: fc.Arbitrary<unknown>): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 8, arbitrary: objects.map((value): Body => ({ kind: "json", value })) },
    { weight: 2, arbitrary: hostileValue.map((value): Body => ({ kind: "json", value })) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES).map((text): Body => ({ kind: "text", text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes): Body => ({ kind: "bytes", bytes })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(70_000, 200_000)
        .map((size): Body => ({ kind: "text", text: JSON.stringify({ name: "x".repeat(size), to: "x".repeat(size) }) })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: "none" }) },
  );
}

/** As a client puts text in a URL: percent-encoded (lone surrogates, which cannot be, become U+FFFD). */
const urlEncoded = (text: string) => encodeURIComponent(text.replace(/\p{Surrogate}/gu, "\uFFFD"));

/** Header values fetch will send: printable Latin-1 only. */
const headerText = hostileString.map((text) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, "").trim());

type Auth = "live" | "test" | "other" | "none" | { header: string } | { headers: [string, string][] };
const auth: fc.Arbitrary<Auth> = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Auth>("live") },
  { weight: 2, arbitrary: fc.constant<Auth>("test") },
  { weight: 1, arbitrary: fc.constant<Auth>("other") },
  { weight: 1, arbitrary: fc.constant<Auth>("none") },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        headerText,
        headerText.map((text) => `Bearer ${text}`),
        fc.constantFrom(
          "Bearer",
          "Bearer ",
          "bearer  tmr_live_",
          "Basic dXNlcjpwYXNz",
          "Bearer tmr_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA000000",
          "Token abc",
          "Bearer tmr_test_%00",
        ),
        fc.nat({ max: 46 }).map((cut) => `Bearer ${"tmr_live_0123456789abcdefghijABCDEFGHIJ0123456789".slice(0, cut)}`),
      )
      .map((header): Auth => ({ header })),
  },
  {
    weight: 1,
    arbitrary: fc.constant<Auth>({
      headers: [
        ["authorization", "Bearer x"],
        ["authorization", "Bearer y"],
      ],
    }),
  },
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "text/plain",
      "application/json; charset=utf-16",
      "APPLICATION/JSON",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json;;;",
      "*/*",
      "application/jsonp",
    ),
  },
  { weight: 1, arbitrary: headerText },
);

const extraHeaders = fc.record(
  {
    "x-request-id": headerText,
    "idempotency-key": fc.oneof(headerText, fc.uuid()),
    accept: fc.constantFrom("*/*", "text/html", "application/xml"),
    "x-forwarded-for": fc.constantFrom("127.0.0.1, 10.0.0.1", "::1", "'; DROP"),
  },
  { requiredKeys: [] },
);

/** A path parameter: the real ids around, random and hostile text (percent-encoded as a client would). */
/** The victim's webhook endpoint id half of the time, else any path parameter. */
function endpointParameter(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(null).map(() => victimEndpointId),
    pathParameter(() => [victimEndpointId, acmeMessageId, acme.accountId]),
  );
}

function pathParameter(known: () => string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.nat().map((index) => known()[index % known().length]),
      fc.uuid(),
      fc.uuid().map((id) => id.toUpperCase()),
      hostileString.filter((text) => text.length > 0).map(urlEncoded),
      fc.constantFrom(
        "%",
        "%E0%A4%A",
        "%00",
        "%2F",
        "%2e%2e%2fadmin",
        "..%2f",
        "a%20b",
        "%C0%AE",
        "00000000-0000-0000-0000-000000000000",
        "123e4567-e89b-12d3-a456-4266141740000",
      ),
    )
    .filter((text) => !/^(\.|%2e){1,2}$/i.test(text));
}

// ---------------------------------------------------------------------------------------------
// Requests and the checks on each answer

type Sample = { auth: Auth; parameter?: string; body?: Body; contentType?: string; headers: Record<string, string>; query: string };

type Endpoint = {
  method: string;
  path: (parameter: string) => string;
  shape: "legacy" | "kit";
  parameter?: fc.Arbitrary<string>;
  body?: fc.Arbitrary<Body>;
};

function tokenFor(choice: Auth): [string, string][] {
  if (choice === "none") return [];
  if (choice === "live") return [["authorization", `Bearer ${acme.token}`]];
  if (choice === "test") return [["authorization", `Bearer ${acmeTestToken}`]];
  if (choice === "other") return [["authorization", `Bearer ${other.token}`]];
  if ("header" in choice) return [["authorization", choice.header]];
  return choice.headers;
}

async function send(endpoint: Endpoint, sample: Sample): Promise<ApiCall> {
  const headers: [string, string][] = [...tokenFor(sample.auth), ...Object.entries(sample.headers)];
  if (sample.contentType !== undefined) headers.push(["content-type", sample.contentType]);
  const body = sample.body;
  const payload =
    !body || body.kind === "none"
      ? undefined
      : body.kind === "json"
        ? (JSON.stringify(body.value) ?? "")
        : body.kind === "text"
          ? body.text
          : new Uint8Array(body.bytes);
  const response = await fetch(`${url()}${endpoint.path(sample.parameter ?? "")}${sample.query}`, {
    method: endpoint.method,
    headers,
    body: payload,
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

function checkAnswer(endpoint: Endpoint, call: ApiCall): void {
  const where = `${endpoint.method} ${endpoint.path("…")} → ${call.status} ${call.text.slice(0, 300)}`;
  expect(call.status, where).toBeLessThan(500);
  expect(call.headers.get("content-type"), where).toMatch(/^application\/json/);
  expect(call.body, where).toBeDefined();
  if (call.status < 400) return;
  const shape = call.status === 401 ? "kit" : endpoint.shape;
  const parsed = (shape === "kit" ? kitErrorSchema : legacyErrorSchema).strict().safeParse(call.body);
  expect(parsed.success, `${where} is not a ${shape} error`).toBe(true);
}

type Counts = {
  messages: number;
  ledgerRows: number;
  apiKeys: number;
  activeKeys: number;
  senderIds: number;
  optOuts: number;
  webhookEndpoints: number;
  balance: bigint;
  otherBalance: bigint;
};

async function counts(): Promise<Counts> {
  const [messages, ledgerRows, apiKeys, activeKeys, senderIds, optOuts, accounts, webhookEndpoints] = await Promise.all([
    db().message.count(),
    db().ledgerEntry.count(),
    db().apiKey.count(),
    db().apiKey.count({ where: { active: true } }),
    db().senderId.count(),
    db().optOut.count(),
    db().account.findMany({ where: { id: { in: [acme.accountId, other.accountId] } }, select: { id: true, balance: true } }),
    db().webhookEndpoint.count(),
  ]);
  const balanceOf = (id: string) => accounts.find((account) => account.id === id)!.balance;
  return {
    messages,
    ledgerRows,
    apiKeys,
    activeKeys,
    senderIds,
    optOuts,
    webhookEndpoints,
    balance: balanceOf(acme.accountId),
    otherBalance: balanceOf(other.accountId),
  };
}

/** What a request that succeeded may have written. */
function expectedWrites(endpoint: Endpoint, sample: Sample, call: ApiCall): Partial<Record<keyof Counts, number | bigint>> {
  if (call.status >= 300 || call.headers.get("idempotent-replayed") === "true") return {};
  const live = sample.auth === "live" || sample.auth === "other";
  const route = `${endpoint.method} ${endpoint.path(":p")}`;
  if (route === "POST /api/v1/sms") {
    return {
      messages: 1,
      ledgerRows: live ? 1 : 0,
      [sample.auth === "other" ? "otherBalance" : "balance"]: live ? -BigInt(call.body.charge) : 0n,
    };
  }
  if (route === "POST /api/v1/sms/bulk") {
    const { total, charge } = call.body.data;
    return {
      messages: total,
      ledgerRows: live ? total : 0,
      [sample.auth === "other" ? "otherBalance" : "balance"]: live ? -BigInt(charge) : 0n,
    };
  }
  if (route === "POST /api/v1/api-tokens") return { apiKeys: 1, activeKeys: 1 };
  if (route === "POST /api/v1/accounts/:p/sender-ids") return { senderIds: 1 };
  if (route === "POST /api/v1/opt-outs") return call.status === 201 ? { optOuts: 1 } : {};
  if (route === "DELETE /api/v1/opt-outs/:p") return { optOuts: -1 };
  if (route === "POST /api/v1/webhooks") return { webhookEndpoints: 1 };
  if (route === "DELETE /api/v1/api-tokens/:p" && sample.auth === "other" && sample.parameter === victim.id && victim.active) {
    victim.active = false;
    return { activeKeys: -1 };
  }
  return {};
}

async function fuzz(endpoint: Endpoint, runs = RUNS): Promise<void> {
  const before = await counts();
  const expected: Counts = { ...before };
  const statuses = new Map<number, number>();
  const sample = fc.record({
    auth,
    parameter: endpoint.parameter ?? fc.constant(undefined),
    body: endpoint.body ?? fc.constant(undefined),
    contentType: endpoint.body ? contentType : fc.constant(undefined),
    headers: extraHeaders,
    query: fc.oneof(
      { weight: 5, arbitrary: fc.constant("") },
      { weight: 1, arbitrary: hostileString.map((text) => `?q=${urlEncoded(text)}&to[]=1&__proto__[admin]=1`) },
    ),
  }) as fc.Arbitrary<Sample>;
  await fc.assert(
    fc.asyncProperty(sample, async (request) => {
      const call = await send(endpoint, request);
      checkAnswer(endpoint, call);
      statuses.set(call.status, (statuses.get(call.status) ?? 0) + 1);
      for (const [name, delta] of Object.entries(expectedWrites(endpoint, request, call)) as [keyof Counts, number | bigint][]) {
        (expected as Record<string, number | bigint>)[name] =
          typeof delta === "bigint" ? (expected[name] as bigint) + delta : (expected[name] as number) + delta;
      }
    }),
    { numRuns: runs, endOnFailure: true, seed: SEED },
  );
  expect(await counts()).toEqual(expected);
  // The generators reach every outcome: some requests were valid, some refused past authentication.
  const seen = [...statuses.keys()];
  expect(
    seen.some((status) => status < 300),
    `statuses ${seen}`,
  ).toBe(true);
  if (endpoint.parameter || endpoint.body)
    expect(
      seen.some((status) => status >= 400 && status !== 401),
      `statuses ${seen}`,
    ).toBe(true);
  expect(seen).toContain(401);
}

// ---------------------------------------------------------------------------------------------

const knownIds = () => [acmeMessageId, other.keyId, acme.accountId, other.accountId];
const accountIds = () => [acme.accountId, other.accountId, acme.accountId.toUpperCase()];
const sendFields = {
  to: msisdn,
  message: fc.constantFrom("Hello", "Olá ✓", "x".repeat(2000)),
  from: fc.constantFrom("ACME", "ACME", "OTHER", "NOPE"),
};

const endpoints: Endpoint[] = [
  { method: "POST", path: () => "/api/v1/sms", shape: "legacy", body: bodyOf(bodyObject(sendFields)) },
  {
    method: "POST",
    path: () => "/api/v1/sms/bulk",
    shape: "kit",
    body: bodyOf(
      bodyObject({
        ...sendFields,
        to: fc.oneof(fc.array(fc.constantFrom(...VALID_MSISDNS), { minLength: 1, maxLength: 30 }), fc.array(msisdn, { maxLength: 30 })),
        webhook_url: fc.constantFrom(
          undefined,
          undefined,
          "https://example.com/h",
          "ftp://x",
          "http://127.0.0.1:1/x",
          "javascript:alert(1)",
        ),
      }),
    ),
  },
  { method: "GET", path: (id) => `/api/v1/sms/${id}`, shape: "legacy", parameter: pathParameter(knownIds) },
  { method: "POST", path: () => "/api/v1/api-tokens", shape: "kit", body: bodyOf(bodyObject({ name: fc.string({ maxLength: 120 }) })) },
  { method: "GET", path: () => "/api/v1/api-tokens", shape: "kit" },
  // Never the callers' own key ids: revoking them would only make the rest of the run 401s.
  {
    method: "DELETE",
    path: (id) => `/api/v1/api-tokens/${id}`,
    shape: "kit",
    parameter: pathParameter(() => [victim.id, acmeMessageId, acme.accountId]),
  },
  { method: "GET", path: (id) => `/api/v1/accounts/${id}/balance`, shape: "kit", parameter: pathParameter(accountIds) },
  { method: "GET", path: (id) => `/api/v1/accounts/${id}/sender-ids`, shape: "kit", parameter: pathParameter(accountIds) },
  {
    method: "POST",
    path: (id) => `/api/v1/accounts/${id}/sender-ids`,
    shape: "kit",
    parameter: pathParameter(accountIds),
    body: bodyOf(bodyObject({ sender_id: fc.stringMatching(/^[A-Za-z0-9]{1,11}$/) })),
  },
  { method: "GET", path: () => "/api/v1/opt-outs", shape: "kit" },
  { method: "POST", path: () => "/api/v1/opt-outs", shape: "kit", body: bodyOf(bodyObject({ number: optOutNumber })) },
  {
    method: "DELETE",
    path: (number) => `/api/v1/opt-outs/${number}`,
    shape: "kit",
    parameter: pathParameter(() => OPT_OUT_NUMBERS.map(encodeURIComponent)),
  },
  {
    method: "POST",
    path: () => "/api/v1/webhooks",
    shape: "kit",
    body: bodyOf(
      bodyObject({
        url: fc.constantFrom("https://93.184.215.14/hook", "ftp://93.184.215.14/", "https://93.184.215.14/" + "x".repeat(3000)),
        events: fc.array(fc.constantFrom("message.status", "balance.low", "opt_out.changed", "nope"), { maxLength: 4 }),
      }),
    ),
  },
  { method: "GET", path: () => "/api/v1/webhooks", shape: "kit" },
  // Rotated before it is deleted: once deleted, both answer 404. Only the other account's key may
  // change its endpoint, so the endpoint's own id comes up often enough for every seed to reach a 200.
  { method: "POST", path: (id) => `/api/v1/webhooks/${id}/rotate`, shape: "kit", parameter: endpointParameter() },
  { method: "DELETE", path: (id) => `/api/v1/webhooks/${id}`, shape: "kit", parameter: endpointParameter() },
];

describe("hostile input", () => {
  it.each(endpoints.map((endpoint) => [`${endpoint.method} ${endpoint.path(":param")}`, endpoint] as const))(
    "%s: no 5xx, errors in the endpoint's shape, only valid requests write",
    async (_name, endpoint) => fuzz(endpoint),
    180_000,
  );

  it("wrong methods and unknown paths answer in shape, and OpenAPI stays public", async () => {
    const unknownPaths = [
      "/api/v1",
      "/api/v1/",
      "/api/v1/sms/x/y",
      "/api/v1/api-tokens/x/y",
      "/api/v1/accounts",
      "/api/v1/%00",
      "/api/v1/accounts/x/other",
    ];
    for (const path of unknownPaths)
      checkAnswer({ method: "GET", path: () => path, shape: "kit" }, await callApi(url(), "GET", path, { token: acme.token }));
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      checkAnswer(
        { method, path: () => "/api/v1/sms", shape: "legacy" },
        await callApi(url(), method, "/api/v1/sms", { token: acme.token, body: "{}" }),
      );
      checkAnswer(
        { method, path: () => "/api/v1/sms/bulk", shape: "kit" },
        await callApi(url(), method, "/api/v1/sms/bulk", { token: acme.token, body: "{}" }),
      );
    }
    const openapi = await callApi(url(), "GET", OPENAPI_PATH, { headers: { authorization: "Bearer nonsense" } });
    expect(openapi.status).toBe(200);
  });

  it("a bulk send over the recipient limit is a clear 400 that names `to`, writing nothing", async () => {
    const before = await counts();
    const call = await callApi(url(), "POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: Array(100_001).fill("+263771234567"), message: "hi", from: "ACME" },
    });
    checkAnswer(endpoints[1], call);
    expect(call.status).toBe(400);
    expect(call.body.error.validation_errors.map((error: { field: string }) => error.field)).toContain("to");
    expect(await counts()).toEqual(before);
  });

  it("a body over its endpoint's limit, by a little or by far, is a 413 in the endpoint's shape, writing nothing", async () => {
    const before = await counts();
    const padded = (bytes: number) => JSON.stringify({ to: "+263771234567", message: "hi", from: "ACME", padding: "x".repeat(bytes) });
    // The single send takes 64 KiB (legacy errors); the bulk send 8 MiB (kit errors).
    const single = await callApi(url(), "POST", "/api/v1/sms", { token: acme.token, body: padded(70 * 1024) });
    checkAnswer(endpoints[0], single);
    expect([single.status, single.body.error.type]).toEqual([413, "ERR_PAYLOAD_TOO_LARGE"]);
    const bulk = await callApi(url(), "POST", "/api/v1/sms/bulk", { token: acme.token, body: padded(9 * 1024 * 1024) });
    checkAnswer(endpoints[1], bulk);
    expect([bulk.status, bulk.body.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    // Declared past the limit: answered on the head, none of the body read, the connection closed.
    const huge = await callApi(url(), "POST", "/api/v1/sms/bulk", { token: acme.token, body: padded(17 * 1024 * 1024) }).catch(
      (error: Error) => error,
    );
    if (!(huge instanceof Error)) {
      checkAnswer(endpoints[1], huge);
      expect([huge.status, huge.body.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    }
    expect(await counts()).toEqual(before);
    expect((await callApi(url(), "GET", "/api/v1/api-tokens", { token: acme.token })).status).toBe(200);
  });

  it("still serves ordinary requests normally afterwards (no prototype pollution, no stuck state)", async () => {
    const list = await callApi(url(), "GET", "/api/v1/api-tokens", { token: acme.token });
    expect(list.status).toBe(200);
    expect(list.body.status).toBe("success");
    expect(list.body).not.toHaveProperty("admin");
    const created = await callApi(url(), "POST", "/api/v1/api-tokens", { token: acme.token, body: { name: "after the storm" } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(["account_id", "created_at", "id", "name", "token", "token_prefix"]);
  });
});
