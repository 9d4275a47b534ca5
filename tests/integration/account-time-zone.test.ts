// The account's time zone: Zimbabwe's for a new account; an owner's change is stored and audited
// once; a name Intl does not know is refused naming the field and changes nothing.
import { describe, expect, it } from "vitest";
import { createAccount } from "@/lib/accounts/create-account";
import { getAccountTimeZone, setAccountTimeZone } from "@/lib/accounts/account-time-zone";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

const newAccount = (name: string) => createAccount({ name, currency: "USD", openingBalance: 0n, actor: "test" });
const timeZoneEvents = (accountId: string) =>
  db().auditEvent.findMany({ where: { accountId, action: "account.time_zone_set" }, orderBy: { id: "asc" } });

describe("account time zone", () => {
  it("starts as Africa/Harare, and an owner's change is stored and audited once", async () => {
    const account = await newAccount("Zone One");
    expect(await getAccountTimeZone(account.id)).toBe("Africa/Harare");

    expect(await setAccountTimeZone({ accountId: account.id, timeZone: "Europe/London", actor: "user:owner" })).toBe("Europe/London");
    expect(await getAccountTimeZone(account.id)).toBe("Europe/London");
    // The same zone again changes nothing and records nothing.
    await setAccountTimeZone({ accountId: account.id, timeZone: "Europe/London", actor: "user:owner" });

    const events = await timeZoneEvents(account.id);
    expect(events).toHaveLength(1);
    expect(events[0].actor).toBe("user:owner");
    expect(JSON.parse(events[0].data)).toEqual({ from: "Africa/Harare", to: "Europe/London" });
  });

  it("refuses a zone Intl does not know, naming the field, and keeps the zone", async () => {
    const account = await newAccount("Zone Two");
    for (const timeZone of ["Mars/Olympus_Mons", "africa/harare", "", "+02:00"]) {
      const refusal = await setAccountTimeZone({ accountId: account.id, timeZone, actor: "user:owner" }).catch((error: unknown) => error);
      expect(refusal, timeZone).toBeInstanceOf(AppError);
      expect((refusal as AppError).options.fields?.map((field) => field.field)).toEqual(["time_zone"]);
    }
    expect(await getAccountTimeZone(account.id)).toBe("Africa/Harare");
    expect(await timeZoneEvents(account.id)).toHaveLength(0);
  });

  it("is one account's own", async () => {
    const [first, second] = [await newAccount("Zone Three"), await newAccount("Zone Four")];
    await setAccountTimeZone({ accountId: first.id, timeZone: "Asia/Tokyo", actor: "user:owner" });
    expect(await getAccountTimeZone(second.id)).toBe("Africa/Harare");
  });

  it("answers not found for an account that does not exist", async () => {
    const missing = await getAccountTimeZone("00000000-0000-0000-0000-000000000000").catch((error: unknown) => error);
    expect((missing as AppError).code).toBe("NOT_FOUND");
  });
});

describe("account time zone under concurrent saves", () => {
  it("audits each change from the zone it replaced", async () => {
    const account = await createAccount({ name: "Zone Race", currency: "USD", openingBalance: 0n, actor: "test" });
    const zones = ["Europe/London", "Asia/Tokyo", "America/New_York", "Asia/Kolkata"];
    await Promise.all(zones.map((timeZone) => setAccountTimeZone({ accountId: account.id, timeZone, actor: `user:${timeZone}` })));
    const events = await db().auditEvent.findMany({
      where: { accountId: account.id, action: "account.time_zone_set" },
      orderBy: { id: "asc" },
    });
    const chain = events.map((event) => JSON.parse(event.data) as { from: string; to: string });
    // Whatever order the audit rows were written in, the changes form one chain from Africa/Harare to the zone that stays.
    const next = new Map(chain.map(({ from, to }) => [from, to]));
    expect(next.size).toBe(chain.length);
    let zone = "Africa/Harare";
    for (let step = 0; step < chain.length; step++) zone = next.get(zone)!;
    expect(zone).toBe(await getAccountTimeZone(account.id));
  });
});
