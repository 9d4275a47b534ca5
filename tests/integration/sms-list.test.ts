// The message search over real HTTP: GET /api/v1/sms and GET /api/v1/sms/export against a server
// process. Messages are sent through the API, then given known times and states, so every filter's
// answer is compared with exactly the rows it must select; pages are walked to the end; test and live
// keys see only their own traffic; bad filters are named in the legacy error shape; the export's
// rows are the list's rows. The dashboard's message log shares the query: its filters, and its export.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createApiKey } from "@/lib/keys/create-api-key";
import { smsSchema, type Sms } from "@/lib/messages/serialize-sms";
import { smsListEnvelopeSchema } from "@/lib/api/sms/sms-search-schemas";
import { SEARCH_CHUNK } from "@/lib/messages/search-messages";
import { handleApiRequest } from "@/lib/api/handle-api-request";
import { listMessages, messageSearchOf, parseMessageFilters } from "@/lib/dashboard/list-messages";
import { MESSAGE_CSV_COLUMNS, messagesCsv } from "@/lib/messages/messages-csv";
import type { Role } from "@/lib/users/roles";
import type { ViewMode } from "@/lib/dashboard/view-mode";
import { expectKitError, expectLegacyError, seedAccount, useApiServer, type SeededAccount } from "../helpers/api-test-server";

const { api } = useApiServer();

let acme: SeededAccount;
let acmeTestToken: string;
let other: SeededAccount;
let bulkId: string;

type Stored = { id: string; to: string; senderId: string; status: string; bulkSendId: string | null; createdAt: Date; test: boolean };
let live: Stored[];
let sandbox: Stored[];

const BASE = Date.parse("2026-03-01T00:00:00.000Z");
const RECIPIENTS = ["+263771234567", "+263712345678", "+263732345678", "+263781234567"];

function newestFirst(rows: Stored[]): Stored[] {
  return [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

async function sendOne(token: string, to: string, from: string, message: string): Promise<string> {
  const call = await api("POST", "/api/v1/sms", { token, body: { to, from, message } });
  expect(call.status).toBe(202);
  return call.body.id;
}

beforeAll(async () => {
  acme = await seedAccount({ name: "Acme", balance: 100_000_000n, senders: ["ACME", "PROMO"] });
  other = await seedAccount({ name: "Other", balance: 100_000_000n, senders: ["ACME"] });
  acmeTestToken = (await createApiKey({ accountId: acme.accountId, name: "sandbox", mode: "test", actor: "test" })).token;

  for (let index = 0; index < 12; index++) {
    await sendOne(acme.token, RECIPIENTS[index % 4], index % 3 === 0 ? "PROMO" : "ACME", `live ${index}`);
  }
  await sendOne(acme.token, RECIPIENTS[0], "ACME", '=HYPERLINK("http://evil.example","click")');
  const bulk = await api("POST", "/api/v1/sms/bulk", {
    token: acme.token,
    body: { to: RECIPIENTS, from: "ACME", message: 'bulk, with a comma and "quotes"' },
  });
  expect(bulk.status).toBe(202);
  bulkId = (await db().message.findFirstOrThrow({ where: { id: bulk.body.data.items[0].id } })).bulkSendId!;
  for (let index = 0; index < 3; index++) await sendOne(acmeTestToken, RECIPIENTS[index], "ACME", `sandbox ${index}`);
  for (let index = 0; index < 2; index++) await sendOne(other.token, RECIPIENTS[0], "ACME", `other ${index}`);

  // Known times, a minute apart, with pairs sharing a time so the cursor must break ties by id; known states.
  const rows = await db().message.findMany({ where: { accountId: acme.accountId }, orderBy: { id: "asc" } });
  for (const [index, row] of rows.entries()) {
    const createdAt = new Date(BASE + Math.floor(index / 2) * 60_000);
    const status = index % 5 === 0 ? "failed" : index % 5 === 1 ? "success" : "enqueued";
    await db().message.update({ where: { id: row.id }, data: { createdAt, status } });
  }
  const stored = await db().message.findMany({ where: { accountId: acme.accountId } });
  live = stored.filter((row) => !row.test);
  sandbox = stored.filter((row) => row.test);
  expect(live).toHaveLength(17);
  expect(sandbox).toHaveLength(3);
}, 120_000);

/** Every page of a list, following next_cursor until it is null. */
async function listAll(token: string, query: string): Promise<{ items: Sms[]; pages: number }> {
  const items: Sms[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const separator = query ? "&" : "";
    const call = await api("GET", `/api/v1/sms?${query}${cursor ? `${separator}cursor=${cursor}` : ""}`, { token });
    expect(call.status).toBe(200);
    const page = smsListEnvelopeSchema.strict().parse(call.body);
    items.push(...page.data.map((item) => smsSchema.parse(item)));
    cursor = page.next_cursor;
    pages++;
  } while (cursor && pages < 100);
  return { items, pages };
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

describe("GET /api/v1/sms", () => {
  it("answers the key's account's live messages, newest first, as Sms objects in the envelope", async () => {
    const call = await api("GET", "/api/v1/sms", { token: acme.token });
    expect(call.status).toBe(200);
    const page = smsListEnvelopeSchema.strict().parse(call.body);
    expect(page.status).toBe("success");
    expect(page.next_cursor).toBeNull();
    expect(ids(page.data)).toEqual(ids(newestFirst(live)));
    const first = await db().message.findUniqueOrThrow({ where: { id: page.data[0].id } });
    expect(page.data[0]).toMatchObject({ to: first.to, message: first.body, sender_id: first.senderId, charge: first.charge.toString() });
  });

  it("keeps test and live apart: a test key lists only test messages, a live key never sees them", async () => {
    const viaTest = await listAll(acmeTestToken, "");
    expect(ids(viaTest.items)).toEqual(ids(newestFirst(sandbox)));
    const viaLive = await listAll(acme.token, "limit=1000");
    expect(ids(viaLive.items).filter((id) => ids(sandbox).includes(id))).toEqual([]);
    const otherAccount = await listAll(other.token, "");
    expect(otherAccount.items).toHaveLength(2);
    expect(ids(otherAccount.items).filter((id) => ids(live).includes(id))).toEqual([]);
  });

  it.each([
    ["status=failed", (row: Stored) => row.status === "failed"],
    ["status=success", (row: Stored) => row.status === "success"],
    ["to=0771234567", (row: Stored) => row.to === "+263771234567"],
    ["to=263712345678", (row: Stored) => row.to === "+263712345678"],
    [`to=${encodeURIComponent("+263 78 123 4567")}`, (row: Stored) => row.to === "+263781234567"],
    ["from=PROMO", (row: Stored) => row.senderId === "PROMO"],
    ["status=enqueued&from=ACME", (row: Stored) => row.status === "enqueued" && row.senderId === "ACME"],
    ["created_after=2026-03-01T00:03:00Z", (row: Stored) => row.createdAt.getTime() >= BASE + 180_000],
    ["created_before=2026-03-01T00:03:00Z", (row: Stored) => row.createdAt.getTime() < BASE + 180_000],
    [
      "created_after=2026-03-01T02:02:00%2B02:00&created_before=2026-03-01T00:06:00.000Z",
      (row: Stored) => row.createdAt.getTime() >= BASE + 120_000 && row.createdAt.getTime() < BASE + 360_000,
    ],
  ])("%s answers exactly the rows it selects", async (query, selects) => {
    const expected = ids(newestFirst(live.filter(selects)));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(live.length);
    expect(ids((await listAll(acme.token, query)).items)).toEqual(expected);
  });

  it("bulk_id answers exactly the messages of that bulk send", async () => {
    const expected = ids(newestFirst(live.filter((row) => row.bulkSendId === bulkId)));
    expect(expected).toHaveLength(4);
    expect(ids((await listAll(acme.token, `bulk_id=${bulkId}`)).items)).toEqual(expected);
    expect((await listAll(acmeTestToken, `bulk_id=${bulkId}`)).items).toEqual([]);
  });

  it("pages with no duplicates and no gaps, across rows sharing a creation time", async () => {
    for (const limit of [1, 2, 3, 5]) {
      const walked = await listAll(acme.token, `limit=${limit}`);
      expect(walked.pages).toBe(Math.ceil(live.length / limit));
      expect(ids(walked.items)).toEqual(ids(newestFirst(live)));
    }
    const filtered = await listAll(acme.token, "limit=2&status=enqueued");
    expect(ids(filtered.items)).toEqual(ids(newestFirst(live.filter((row) => row.status === "enqueued"))));
  });

  it("a page of `limit` rows carries a cursor; the default page holds 50", async () => {
    const call = await api("GET", "/api/v1/sms?limit=4", { token: acme.token });
    expect(call.body.data).toHaveLength(4);
    expect(call.body.next_cursor).toEqual(expect.any(String));
    const next = await api("GET", `/api/v1/sms?limit=4&cursor=${call.body.next_cursor}`, { token: acme.token });
    expect(ids(next.body.data)).toEqual(ids(newestFirst(live)).slice(4, 8));
  });

  it("names every bad filter at once in the legacy error shape", async () => {
    const call = await api(
      "GET",
      "/api/v1/sms?status=sent&to=12345&bulk_id=abc&created_after=yesterday&created_before=2026-13-01&limit=0",
      {
        token: acme.token,
      },
    );
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    const fields = call.body.error.validation_errors.map((error: { field: string }) => error.field).sort();
    expect(fields).toEqual(["bulk_id", "created_after", "created_before", "limit", "status", "to"]);
  });

  it.each([
    ["limit=1001", "limit"],
    ["limit=2.5", "limit"],
    ["limit=-1", "limit"],
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from("2026-01-01T00:00:00.000Z|x").toString("base64url")}`, "cursor"],
    ["from=ABCDEFGHIJKLMNOPQ", "from"],
    ["created_after=2026-03-01", "created_after"],
    ["limit=10&limit=20", "limit"],
    ["from=", "from"],
    ["from=A%00B", "from"],
    ["status=%00", "status"],
    ["created_after=9999-12-31T23:59:59-23:59", "created_after"],
    ["created_before=0000-01-01T00:00:00%2B00:01", "created_before"],
    [`cursor=${Buffer.from("+275760-09-13T00:00:00.000Z|0193c6a0-0000-7000-8000-000000000000").toString("base64url")}`, "cursor"],
    ["to=0771234567&to=0771234567", "to"],
  ])("%s: 400 naming %s", async (query, field) => {
    const call = await api("GET", `/api/v1/sms?${query}`, { token: acme.token });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([{ field, description: expect.any(String) }]);
  });

  it("filters by the longest sender id an account can have, a + and 15 digits, in the list, the export and the dashboard", async () => {
    const sender = "+263771234567890";
    const numeric = await seedAccount({ name: "Numeric", senders: [sender] });
    const id = await sendOne(numeric.token, RECIPIENTS[0], sender, "from a long number");
    const query = `from=${encodeURIComponent(sender)}`;
    const listed = await api("GET", `/api/v1/sms?${query}`, { token: numeric.token });
    expect(listed.status).toBe(200);
    expect(ids(listed.body.data)).toEqual([id]);
    const exported = await api("GET", `/api/v1/sms/export?${query}`, { token: numeric.token });
    expect(exported.status).toBe(200);
    expect(parseCsv(exported.text).map((row) => row[0])).toEqual(["id", id]);
    const { filters, problems } = parseMessageFilters({ sender }, "owner");
    expect(problems).toEqual([]);
    expect(ids((await listMessages(numeric.accountId, filters, "live")).rows)).toEqual([id]);
  });

  it("says to encode the + of a time's offset when a query string turned it into a space", async () => {
    const call = await api("GET", "/api/v1/sms?created_after=2026-03-01T02:00:00+02:00", { token: acme.token });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([{ field: "created_after", description: expect.stringContaining("%2B") }]);
    const encoded = await api("GET", "/api/v1/sms?created_after=2026-03-01T02:00:00%2B02:00", { token: acme.token });
    expect(encoded.status).toBe(200);
  });

  it("reads a time filter in every RFC 3339 form a send_at takes: lower-case t and z, a space for the T", async () => {
    const [newest] = (await api("GET", "/api/v1/sms?limit=1", { token: acme.token })).body.data;
    const at: string = newest.created_at;
    for (const written of [at, at.replace("T", "t").replace("Z", "z"), at.replace("T", "%20")]) {
      const call = await api("GET", `/api/v1/sms?limit=1&created_after=${written}`, { token: acme.token });
      expect(call.status).toBe(200);
      expect(call.body.data.map((sms: { id: string }) => sms.id)).toEqual([newest.id]);
    }
  });

  it("without a key: 401 in the kit shape", async () => {
    expectKitError(await api("GET", "/api/v1/sms"), 401, "UNAUTHORIZED");
    expectKitError(await api("GET", "/api/v1/sms/export"), 401, "UNAUTHORIZED");
  });
});

/** The CSV's rows as arrays of cells (quoted cells unquoted), header first. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      index++;
    } else cell += char;
  }
  expect(cell).toBe("");
  return rows;
}

const undefuse = (cell: string) => (/^'[=+\-@]/.test(cell) ? cell.slice(1) : cell);

describe("GET /api/v1/sms/export", () => {
  it("streams CSV with the documented header, its rows the list's rows with every field", async () => {
    const call = await api("GET", "/api/v1/sms/export", { token: acme.token });
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(call.headers.get("content-disposition")).toMatch(/^attachment; filename="tumira-messages-\d{4}-\d\d-\d\d\.csv"$/);
    expect(call.headers.get("transfer-encoding")).toBe("chunked");
    const [header, ...rows] = parseCsv(call.text);
    expect(header).toEqual([...MESSAGE_CSV_COLUMNS]);
    const listed = (await listAll(acme.token, "limit=1000")).items;
    expect(rows.map((row) => row[0])).toEqual(ids(listed));
    for (const [index, row] of rows.entries()) {
      const sms = listed[index] as Record<string, unknown>;
      const expected = header.map((column) =>
        column === "bulk_id" ? (live.find((stored) => stored.id === sms.id)!.bulkSendId ?? "") : String(sms[column] ?? ""),
      );
      expect(row.map(undefuse)).toEqual(expected);
    }
  });

  it("streams more rows than one read holds, each once, in order", async () => {
    const big = await seedAccount({ name: "Big", senders: ["BIG"] });
    const count = 2 * SEARCH_CHUNK + 345;
    const receivedAt = new Date(BASE);
    await db().message.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        accountId: big.accountId,
        to: RECIPIENTS[index % 4],
        body: `row ${index}`,
        senderId: "BIG",
        operator: "econet",
        charge: 350n,
        currency: "USD",
        segments: 1,
        encoding: "gsm7",
        status: "success",
        nextAttemptAt: receivedAt,
        receivedAt,
        // Runs of ten share a time, so reads end inside a run.
        createdAt: new Date(BASE + Math.floor(index / 10) * 1000),
      })),
    });
    const call = await api("GET", "/api/v1/sms/export", { token: big.token });
    expect(call.status).toBe(200);
    const rows = parseCsv(call.text).slice(1);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((row) => row[0])).size).toBe(count);
    const stored = await db().message.findMany({ where: { accountId: big.accountId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    expect(rows.map((row) => row[0])).toEqual(ids(stored));
  });

  it("applies the same filters as the list", async () => {
    for (const query of ["status=failed", "to=0771234567&from=ACME", `bulk_id=${bulkId}`, "created_before=2026-03-01T00:04:00Z"]) {
      const call = await api("GET", `/api/v1/sms/export?${query}`, { token: acme.token });
      expect(call.status).toBe(200);
      const rows = parseCsv(call.text).slice(1);
      const listed = (await listAll(acme.token, query)).items;
      expect(listed.length).toBeGreaterThan(0);
      expect(rows.map((row) => row[0])).toEqual(ids(listed));
    }
    const sandboxCsv = await api("GET", "/api/v1/sms/export", { token: acmeTestToken });
    expect(
      parseCsv(sandboxCsv.text)
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(ids(newestFirst(sandbox)));
  });

  it("defuses cells a spreadsheet would run: a leading =, + or - is prefixed with '", async () => {
    const call = await api("GET", "/api/v1/sms/export", { token: acme.token });
    const [header, ...rows] = parseCsv(call.text);
    const body = header.indexOf("message");
    const to = header.indexOf("to");
    const formula = rows.find((row) => row[body].includes("HYPERLINK"))!;
    expect(formula[body]).toBe('\'=HYPERLINK("http://evil.example","click")');
    expect(rows.every((row) => row[to].startsWith("'+263"))).toBe(true);
    expect(rows.some((row) => row[body] === 'bulk, with a comma and "quotes"')).toBe(true);
  });

  it("answers a bad filter with the legacy error shape naming it, and ignores paging", async () => {
    const call = await api("GET", "/api/v1/sms/export?status=nope", { token: acme.token });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([{ field: "status", description: expect.any(String) }]);
    const all = await api("GET", "/api/v1/sms/export?limit=1", { token: acme.token });
    expect(parseCsv(all.text)).toHaveLength(live.length + 1);
    const badPaging = await api("GET", "/api/v1/sms/export?limit=abc&limit=5&cursor=zzz", { token: acme.token });
    expect(badPaging.status).toBe(200);
    expect(parseCsv(badPaging.text)).toHaveLength(live.length + 1);
  });

  it("answers a time past the year 9999 once in UTC with a 400 before any row", async () => {
    const call = await api("GET", "/api/v1/sms/export?created_before=9999-12-31T23:59:59-23:59", { token: acme.token });
    expectLegacyError(call, 400, "ERR_BAD_REQUEST");
    expect(call.body.error.validation_errors).toEqual([
      { field: "created_before", description: "must be a time in the years 0001 to 9999" },
    ]);
  });

  it("Next's route handler (next dev) answers the list and the export as the server does", async () => {
    for (const path of ["/api/v1/sms?limit=3&status=enqueued", "/api/v1/sms/export?from=PROMO", "/api/v1/sms?limit=x"]) {
      const viaServer = await api("GET", path, { token: acme.token });
      const viaNext = await handleApiRequest(
        new Request(`http://localhost${path}`, { headers: { authorization: `Bearer ${acme.token}` } }),
      );
      expect(viaNext.status).toBe(viaServer.status);
      expect(viaNext.headers.get("content-type")).toBe(viaServer.headers.get("content-type"));
      expect(await viaNext.text()).toBe(viaServer.text);
    }
  });

  it("does not collide with reading one message: /sms/{id} still answers by id, export is GET only", async () => {
    const one = await api("GET", `/api/v1/sms/${live[0].id}`, { token: acme.token });
    expect(one.status).toBe(200);
    expect(one.body.data.id).toBe(live[0].id);
    expectLegacyError(await api("GET", "/api/v1/sms/exports", { token: acme.token }), 400, "ERR_BAD_REQUEST");
    const post = await api("POST", "/api/v1/sms/export", { token: acme.token, body: {} });
    expectLegacyError(post, 405, "ERR_METHOD_NOT_ALLOWED");
    expect(post.headers.get("allow")).toBe("GET");
  });
});

describe("the dashboard's message log", () => {
  const listAllDashboard = async (params: Record<string, string>, role: Role = "owner", mode: ViewMode = "live") => {
    const rows: string[] = [];
    let cursor: string | undefined;
    do {
      const { filters, problems } = parseMessageFilters({ ...params, ...(cursor ? { cursor } : {}) }, role);
      expect(problems).toEqual([]);
      const page = await listMessages(acme.accountId, filters, mode);
      rows.push(...ids(page.rows));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return rows;
  };
  const exported = async (params: Record<string, string>, mode: ViewMode = "live") => {
    const { filters } = parseMessageFilters(params, "developer");
    let text = "";
    for await (const chunk of messagesCsv(messageSearchOf(acme.accountId, filters, mode))) text += chunk;
    return parseCsv(text)
      .slice(1)
      .map((row) => row[0]);
  };

  beforeAll(async () => {
    const [first, second] = newestFirst(live.filter((row) => row.status === "failed"));
    await db().message.update({ where: { id: first.id }, data: { operatorResponse: "UNDELIV" } });
    await db().message.update({ where: { id: second.id }, data: { lastError: "ESME_RINVDSTADR (0x0000000b)" } });
  });

  it.each([
    [{ sender: "PROMO" }, (row: Stored) => row.senderId === "PROMO"],
    [{ bulk: "(bulk)" }, (row: Stored) => row.bulkSendId === bulkId],
    [{ recipient: "0712345678", status: "enqueued" }, (row: Stored) => row.to === "+263712345678" && row.status === "enqueued"],
    [{ since: "2026-03-01", until: "2026-03-01" }, () => true],
    [{ until: "2026-02-28" }, () => false],
  ])(
    "%o lists exactly the rows it selects, live ones in the live view and test ones in the test view, and exports the same rows",
    async (params, selects) => {
      const concrete = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, value === "(bulk)" ? bulkId : value]));
      const expectedLive = ids(newestFirst(live.filter(selects)));
      const expectedTest = ids(newestFirst(sandbox.filter(selects)));
      expect(await listAllDashboard(concrete)).toEqual(expectedLive);
      expect(await exported(concrete)).toEqual(expectedLive);
      expect(await listAllDashboard(concrete, "owner", "test")).toEqual(expectedTest);
      expect(await exported(concrete, "test")).toEqual(expectedTest);
    },
  );

  it("keeps the two views apart: no row in both, and together they are every message", async () => {
    const liveRows = await listAllDashboard({});
    const testRows = await listAllDashboard({}, "owner", "test");
    expect(testRows.length).toBeGreaterThan(0);
    expect(liveRows.filter((id) => testRows.includes(id))).toEqual([]);
    expect([...liveRows, ...testRows].sort()).toEqual(ids([...live, ...sandbox]).sort());
  });

  it("filters by error reason, in the carrier's response or the last error", async () => {
    const [first, second] = newestFirst(live.filter((row) => row.status === "failed"));
    expect(await listAllDashboard({ reason: "UNDELIV" })).toEqual([first.id]);
    expect(await listAllDashboard({ reason: "ESME_RINVDSTADR" })).toEqual([second.id]);
    expect(await exported({ reason: "ESME_RINVDSTADR" })).toEqual([second.id]);
    expect(parseMessageFilters({ reason: "DELIVRD" }).problems.map((problem) => problem.field)).toEqual(["reason"]);
  });

  it("searches message text, ignoring case, for owners and developers only", async () => {
    const hyperlink = live.filter((row) => row.senderId === "ACME").map((row) => row.id);
    const found = await listAllDashboard({ text: "hyperlink" }, "developer");
    expect(found).toHaveLength(1);
    expect(hyperlink).toContain(found[0]);
    expect(await listAllDashboard({ text: "SANDBOX" }, "owner", "test")).toEqual(ids(newestFirst(sandbox)));
    expect(await exported({ text: "sandbox" }, "test")).toEqual(ids(newestFirst(sandbox)));
    expect(await listAllDashboard({ text: "SANDBOX" })).toEqual([]);
    const refused = parseMessageFilters({ text: "sandbox" }, "support");
    expect(refused.filters).not.toHaveProperty("text");
    expect(refused.problems).toEqual([{ field: "text", description: expect.stringContaining("Message text") }]);
  });
});
