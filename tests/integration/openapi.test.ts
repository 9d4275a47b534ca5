// The OpenAPI 3.1 document: its structure, every endpoint of the spec and the account endpoints, both
// error shapes, the bearer scheme, and that real responses of the running server match the schemas it
// documents for their status (checked with a small JSON Schema subset validator below).
import { beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument, OPENAPI_PATH } from "@/lib/api/openapi/openapi-document";
import { apiRoutes } from "@/lib/api/routes";
import { seedAccount, useApiServer, type ApiCall, type SeededAccount } from "../helpers/api-test-server";

const document = buildOpenApiDocument();
type Schema = Record<string, any>;

/** The JSON Schema keywords zod emits here; returns the problems found (empty when valid). */
function validate(value: unknown, schema: Schema, path = "$"): string[] {
  if (schema.$ref) return validate(value, resolve(schema.$ref), path);
  if (schema.anyOf) {
    return schema.anyOf.some((option: Schema) => validate(value, option, path).length === 0) ? [] : [`${path}: matches no anyOf option`];
  }
  const problems: string[] = [];
  const types: string[] | undefined = schema.type === undefined ? undefined : [schema.type].flat();
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : Number.isInteger(value) ? "integer" : typeof value;
  if (types && !types.includes(actual) && !(actual === "integer" && types.includes("number")))
    return [`${path}: ${actual} is not ${types.join("|")}`];
  if ("const" in schema && value !== schema.const) problems.push(`${path}: not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) problems.push(`${path}: not one of ${schema.enum.join(", ")}`);
  if (typeof value === "string") {
    if (schema.pattern && !new RegExp(schema.pattern).test(value)) problems.push(`${path}: does not match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength) problems.push(`${path}: too short`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength) problems.push(`${path}: too long`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((item, index) => problems.push(...validate(item, schema.items, `${path}[${index}]`)));
  if (actual === "object") {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in object)) problems.push(`${path}.${name}: missing`);
    for (const [name, item] of Object.entries(object)) {
      if (schema.properties?.[name]) problems.push(...validate(item, schema.properties[name], `${path}.${name}`));
      else if (schema.additionalProperties === false) problems.push(`${path}.${name}: not allowed`);
    }
  }
  return problems;
}

function resolve(ref: string): Schema {
  expect(ref.startsWith("#/")).toBe(true);
  const target = ref
    .slice(2)
    .split("/")
    .reduce<any>((node, part) => node?.[part.replace(/~1/g, "/").replace(/~0/g, "~")], document);
  if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
  return target;
}

function refsIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsIn);
  if (node && typeof node === "object") {
    return Object.entries(node).flatMap(([key, value]) => (key === "$ref" && typeof value === "string" ? [value] : refsIn(value)));
  }
  return [];
}

const responseSchema = (path: string, method: string, status: number): Schema =>
  (document.paths as any)[path][method].responses[status].content["application/json"].schema;

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 with version 1.0.0 and the bearer scheme required by default", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("1.0.0");
    expect(document.info.title).toEqual(expect.any(String));
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.security).toEqual([{ bearerAuth: [] }]);
  });

  it("documents every endpoint of the spec and the account endpoints, and exactly the API's routes", () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const required = [
      "POST /api/v1/sms",
      "GET /api/v1/sms/{id}",
      "POST /api/v1/sms/bulk",
      "POST /api/v1/api-tokens",
      "GET /api/v1/api-tokens",
      "DELETE /api/v1/api-tokens/{id}",
      "GET /api/v1/accounts/{account_id}/balance",
      "GET /api/v1/accounts/{account_id}/sender-ids",
      "POST /api/v1/accounts/{account_id}/sender-ids",
      "GET /api/v1/opt-outs",
      "POST /api/v1/opt-outs",
      "DELETE /api/v1/opt-outs/{number}",
    ];
    for (const operation of required) expect(documented).toContain(operation);
    const routed = apiRoutes
      .filter((route) => route.path.startsWith("/api/v1/"))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(documented.sort()).toEqual(routed.sort());
  });

  it("has both error shapes as components, each status answered in its endpoint's shape (spec 7.3)", () => {
    expect(document.components.schemas.KitError).toMatchObject({ required: ["status", "message", "error"] });
    expect(document.components.schemas.LegacyError).toMatchObject({ required: ["status", "message", "error"] });
    expect(Object.keys((document.components.schemas.LegacyError as Schema).properties.error.properties)).toContain("type");
    const errorComponent = (path: string, method: string, status: number) => responseSchema(path, method, status).$ref.split("/").at(-1);
    expect(errorComponent("/api/v1/sms", "post", 400)).toBe("LegacyError");
    expect(errorComponent("/api/v1/sms", "post", 401)).toBe("KitError");
    expect(errorComponent("/api/v1/sms/{id}", "get", 400)).toBe("LegacyError");
    expect(errorComponent("/api/v1/sms/{id}", "get", 404)).toBe("LegacyError");
    expect(errorComponent("/api/v1/sms/{id}", "get", 401)).toBe("KitError");
    for (const status of [400, 401, 422]) expect(errorComponent("/api/v1/sms/bulk", "post", status)).toBe("KitError");
    expect(errorComponent("/api/v1/api-tokens", "post", 400)).toBe("KitError");
    expect(errorComponent("/api/v1/api-tokens/{id}", "delete", 400)).toBe("KitError");
    expect(errorComponent("/api/v1/api-tokens", "get", 401)).toBe("KitError");
  });

  it("documents request bodies, success bodies per status, and path parameters", () => {
    const paths = document.paths as any;
    expect(paths["/api/v1/sms"].post.requestBody.content["application/json"].schema.$ref).toMatch(/SendSmsRequest$/);
    expect(paths["/api/v1/api-tokens"].post.requestBody.required).toBe(true);
    expect(responseSchema("/api/v1/sms", "post", 202).$ref).toMatch(/\/Sms$/);
    expect(responseSchema("/api/v1/sms/bulk", "post", 202).$ref).toMatch(/BulkSmsEnvelope$/);
    expect(responseSchema("/api/v1/api-tokens", "post", 201).$ref).toMatch(/ApiKeyCreatedEnvelope$/);
    expect(resolve("#/components/schemas/StatusEnvelope").properties).not.toHaveProperty("data");
    // The charge asymmetry: a string in Sms, an integer in bulk items.
    expect(resolve("#/components/schemas/Sms").properties.charge.type).toBe("string");
    expect(resolve("#/components/schemas/BulkSmsItem").properties.charge.type).toBe("integer");
    for (const [path, methods] of Object.entries(paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(methods as Record<string, any>)) {
        const declared =
          operation.parameters?.filter((parameter: Schema) => parameter.in === "path").map((parameter: Schema) => parameter.name) ?? [];
        expect(declared.sort()).toEqual(names.sort());
        for (const response of Object.values(operation.responses as Record<string, Schema>))
          expect(response.description).toEqual(expect.any(String));
      }
    }
    const operationIds = Object.values(paths).flatMap((methods: any) =>
      Object.values(methods).map((operation: any) => operation.operationId),
    );
    expect(new Set(operationIds).size).toBe(operationIds.length);
  });

  it("the validator used below refuses bodies of the wrong shape", () => {
    const kit = { $ref: "#/components/schemas/KitError" };
    expect(validate({ status: "error", message: "m", error: { code: "X", description: "d" } }, kit)).toEqual([]);
    expect(validate({ status: "", message: "m", error: { type: "X", description: "d" } }, kit).length).toBeGreaterThan(0);
    expect(
      validate({ status: "success", message: "", data: [{ ID: "x" }] }, { $ref: "#/components/schemas/ApiKeyListEnvelope" }).length,
    ).toBeGreaterThan(0);
    expect(validate({ status: "success", message: "", extra: 1 }, { $ref: "#/components/schemas/StatusEnvelope" })).toEqual([
      "$.extra: not allowed",
    ]);
  });

  it("every $ref resolves inside the document", () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(20);
    for (const ref of new Set(refs)) expect(() => resolve(ref)).not.toThrow();
  });
});

describe("served and true to the running server", () => {
  const { api } = useApiServer();
  let acme: SeededAccount;

  beforeAll(async () => {
    acme = await seedAccount();
  });

  function expectDocumented(call: ApiCall, path: string, method: string) {
    const response = (document.paths as any)[path][method].responses[call.status];
    expect(response, `${method} ${path} ${call.status} is documented`).toBeDefined();
    expect(validate(call.body, response.content["application/json"].schema)).toEqual([]);
  }

  it("GET /api/v1/openapi.json answers the document without authentication", async () => {
    const call = await api("GET", OPENAPI_PATH);
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toMatch(/^application\/json/);
    expect(call.body).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it("key and account responses, successes and errors, match their documented schemas", async () => {
    const base = `/api/v1/accounts/${acme.accountId}`;
    const created = await api("POST", "/api/v1/api-tokens", { token: acme.token, body: { name: "documented" } });
    expectDocumented(created, "/api/v1/api-tokens", "post");
    expectDocumented(await api("POST", "/api/v1/api-tokens", { token: acme.token, body: {} }), "/api/v1/api-tokens", "post");
    expectDocumented(await api("POST", "/api/v1/api-tokens", { body: { name: "x" } }), "/api/v1/api-tokens", "post");
    expectDocumented(await api("GET", "/api/v1/api-tokens", { token: acme.token }), "/api/v1/api-tokens", "get");
    expectDocumented(
      await api("DELETE", `/api/v1/api-tokens/${created.body.data.id}`, { token: acme.token }),
      "/api/v1/api-tokens/{id}",
      "delete",
    );
    expectDocumented(await api("DELETE", "/api/v1/api-tokens/nope", { token: acme.token }), "/api/v1/api-tokens/{id}", "delete");
    expectDocumented(await api("GET", `${base}/balance`, { token: acme.token }), "/api/v1/accounts/{account_id}/balance", "get");
    expectDocumented(
      await api("GET", `/api/v1/accounts/${crypto.randomUUID()}/balance`, { token: acme.token }),
      "/api/v1/accounts/{account_id}/balance",
      "get",
    );
    expectDocumented(
      await api("POST", `${base}/sender-ids`, { token: acme.token, body: { sender_id: "NEWS" } }),
      "/api/v1/accounts/{account_id}/sender-ids",
      "post",
    );
    expectDocumented(
      await api("POST", `${base}/sender-ids`, { token: acme.token, body: { sender_id: "NEWS" } }),
      "/api/v1/accounts/{account_id}/sender-ids",
      "post",
    );
    expectDocumented(await api("GET", `${base}/sender-ids`, { token: acme.token }), "/api/v1/accounts/{account_id}/sender-ids", "get");
  });

  it("documents priority, send_at and validity_period of both sends as the server checks them", async () => {
    for (const request of ["SendSmsRequest", "SendBulkSmsRequest"]) {
      const properties = resolve(`#/components/schemas/${request}`).properties;
      const [priority, sendAt, validity] = ["priority", "send_at", "validity_period"].map((name) => properties[name].anyOf[0]);
      expect(priority.enum).toEqual(["normal", "high"]);
      expect(sendAt).toMatchObject({ type: "string", format: "date-time" });
      expect(validity).toMatchObject({ type: "integer", minimum: 60, maximum: 604_800 });
      const send = (validity_period: number) =>
        api("POST", request === "SendSmsRequest" ? "/api/v1/sms" : "/api/v1/sms/bulk", {
          token: acme.token,
          body: { to: request === "SendSmsRequest" ? "+263771234567" : ["+263771234567"], message: "Hi", from: "ACME", validity_period },
        });
      for (const inRange of [validity.minimum, validity.maximum]) expect((await send(inRange)).status).toBe(202);
      for (const outOfRange of [validity.minimum - 1, validity.maximum + 1, validity.minimum + 0.5]) {
        const refused = await send(outOfRange);
        expect(refused.status).toBe(400);
        expect(refused.body.error.validation_errors.map((error: { field: string }) => error.field)).toEqual(["validity_period"]);
      }
    }
  });

  it("documents each list's limit as the integer range the server takes, with its default", async () => {
    for (const [path, items] of [
      ["/api/v1/sms", (body: any) => body.data],
      ["/api/v1/inbound", (body: any) => body.data],
      ["/api/v1/opt-outs", (body: any) => body.data.items],
    ] as const) {
      const limit = (document.paths as any)[path].get.parameters.find((parameter: Schema) => parameter.name === "limit").schema;
      expect(limit).toEqual({ type: "integer", minimum: 1, maximum: expect.any(Number), default: expect.any(Number) });
      for (const taken of [limit.minimum, limit.maximum]) {
        const call = await api("GET", `${path}?limit=${taken}`, { token: acme.token });
        expect(call.status).toBe(200);
        expect(items(call.body)).toEqual(expect.any(Array));
      }
      for (const refused of [limit.minimum - 1, limit.maximum + 1]) {
        const call = await api("GET", `${path}?limit=${refused}`, { token: acme.token });
        expect(call.status).toBe(400);
        expect(call.body.error.validation_errors).toEqual([
          { field: "limit", description: `must be a whole number from 1 to ${limit.maximum}` },
        ]);
      }
    }
  });

  it("SMS responses, successes and errors, match their documented schemas", async () => {
    const single = await api("POST", "/api/v1/sms", { token: acme.token, body: { to: "+263771234567", message: "Hello", from: "ACME" } });
    expect(single.status).toBe(202);
    expectDocumented(single, "/api/v1/sms", "post");
    expectDocumented(await api("POST", "/api/v1/sms", { token: acme.token, body: "{" }), "/api/v1/sms", "post");
    expectDocumented(
      await api("POST", "/api/v1/sms", { token: acme.token, body: { to: "+263771234567", message: "Hi", from: "NOPE" } }),
      "/api/v1/sms",
      "post",
    );
    expectDocumented(await api("GET", `/api/v1/sms/${single.body.id}`, { token: acme.token }), "/api/v1/sms/{id}", "get");
    expectDocumented(await api("GET", "/api/v1/sms/nope", { token: acme.token }), "/api/v1/sms/{id}", "get");
    expectDocumented(await api("GET", `/api/v1/sms/${crypto.randomUUID()}`, { token: acme.token }), "/api/v1/sms/{id}", "get");
    const bulk = await api("POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: ["+263771234567", "+263711234567"], message: "Hi all", from: "ACME" },
    });
    expect(bulk.status).toBe(202);
    expectDocumented(bulk, "/api/v1/sms/bulk", "post");
    expectDocumented(
      await api("POST", "/api/v1/sms/bulk", { token: acme.token, body: { to: [], message: "", from: "ACME" } }),
      "/api/v1/sms/bulk",
      "post",
    );
    const list = await api("GET", "/api/v1/sms?limit=1", { token: acme.token });
    expect(list.body.data).toHaveLength(1);
    expectDocumented(list, "/api/v1/sms", "get");
    expectDocumented(await api("GET", "/api/v1/sms?status=nope", { token: acme.token }), "/api/v1/sms", "get");
    expectDocumented(await api("GET", "/api/v1/sms/export?to=1", { token: acme.token }), "/api/v1/sms/export", "get");
    const exported = await api("GET", "/api/v1/sms/export", { token: acme.token });
    const documented = (document.paths as any)["/api/v1/sms/export"].get.responses[200].content["text/csv"].schema.description;
    expect(documented).toContain(exported.text.split("\r\n")[0]);
  });

  it("documents a 413 with its limit for every endpoint, and endpoints without a body answer it as documented", async () => {
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Schema>>)) {
      if (path === OPENAPI_PATH) continue;
      for (const [method, operation] of Object.entries(methods)) {
        const limit = path === "/api/v1/sms/bulk" ? "8 MiB" : "64 KiB";
        expect(operation.responses[413]?.description, `${method} ${path}`).toContain(`(${limit})`);
      }
    }
    const overLimit = "x".repeat(65 * 1024);
    const single = await api("POST", "/api/v1/sms", { token: acme.token, body: { to: "+263771234567", message: "Hi", from: "ACME" } });
    const cancel = await api("POST", `/api/v1/sms/${single.body.id}/cancel`, { token: acme.token, body: overLimit });
    expect([cancel.status, cancel.body.error.type]).toEqual([413, "ERR_PAYLOAD_TOO_LARGE"]);
    expectDocumented(cancel, "/api/v1/sms/{id}/cancel", "post");
    const revoke = await api("DELETE", `/api/v1/api-tokens/${crypto.randomUUID()}`, { token: acme.token, body: overLimit });
    expect([revoke.status, revoke.body.error.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);
    expectDocumented(revoke, "/api/v1/api-tokens/{id}", "delete");
    // Refused before the handler: the message was not cancelled.
    expect((await api("GET", `/api/v1/sms/${single.body.id}`, { token: acme.token })).body.data.status).toBe("enqueued");
  });

  it("opt-out responses, and the sends they refuse, match their documented schemas", async () => {
    const added = await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "0772999001" } });
    expect(added.status).toBe(201);
    expectDocumented(added, "/api/v1/opt-outs", "post");
    const again = await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "+263772999001" } });
    expect(again.status).toBe(200);
    expectDocumented(again, "/api/v1/opt-outs", "post");
    expectDocumented(await api("POST", "/api/v1/opt-outs", { token: acme.token, body: { number: "nope" } }), "/api/v1/opt-outs", "post");
    expectDocumented(await api("GET", "/api/v1/opt-outs?limit=1", { token: acme.token }), "/api/v1/opt-outs", "get");
    expectDocumented(await api("GET", "/api/v1/opt-outs?cursor=x", { token: acme.token }), "/api/v1/opt-outs", "get");
    const refused = await api("POST", "/api/v1/sms", { token: acme.token, body: { to: "0772999001", message: "Hi", from: "ACME" } });
    expect(refused.status).toBe(422);
    expectDocumented(refused, "/api/v1/sms", "post");
    const bulk = await api("POST", "/api/v1/sms/bulk", {
      token: acme.token,
      body: { to: ["+263772999001", "+263772999002"], message: "Hi all", from: "ACME" },
    });
    expect(bulk.body.data.opted_out).toEqual([{ index: 0, to: "+263772999001" }]);
    expectDocumented(bulk, "/api/v1/sms/bulk", "post");
    const removed = await api("DELETE", "/api/v1/opt-outs/0772999001", { token: acme.token });
    expect(removed.status).toBe(200);
    expectDocumented(removed, "/api/v1/opt-outs/{number}", "delete");
    expectDocumented(await api("DELETE", "/api/v1/opt-outs/0772999001", { token: acme.token }), "/api/v1/opt-outs/{number}", "delete");
    expectDocumented(await api("DELETE", "/api/v1/opt-outs/x", { token: acme.token }), "/api/v1/opt-outs/{number}", "delete");
  });
});
