// The audit log's details show recorded money in the account's currency, not in stored units, and
// its actor filter finds actors by the words the log shows for them.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { requestTopUp } from "@/lib/ledger/request-top-up";
import { setLowBalanceThreshold } from "@/lib/webhooks/low-balance";
import { setRate } from "@/lib/rates/rates";
import { createApiKey } from "@/lib/keys/create-api-key";
import { pauseCarrier } from "@/lib/carriers/carrier-pauses";
import { createPlatformAdmin } from "@/lib/users/create-platform-admin";
import { creditBalance } from "@/lib/ledger/credit-balance";
import { exportAuditEvents, listAuditEvents } from "@/lib/dashboard/list-audit-events";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

describe("audit details", () => {
  it("show amounts, thresholds and prices in the account's currency, in the log and its export", async () => {
    const account = await createAccount({
      name: "Audit Money Ltd",
      currency: "USD",
      openingBalance: 10_000n,
      owner: { email: "owner@audit-money.test", password: "correct horse battery" },
      actor: "test",
    });
    const owner = await db().user.findFirstOrThrow({ where: { accountId: account.id } });
    const actor = `user:${owner.id}`;
    await requestTopUp({ accountId: account.id, amount: "25.50", reference: "FNB 1", actor });
    await setLowBalanceThreshold({ accountId: account.id, threshold: 75_000n, actor });
    await setRate({ operator: "econet", pricePerSegment: 350n, accountId: account.id, actor });

    const { rows } = await listAuditEvents({ accountId: account.id }, {});
    const details = (action: string) => rows.find((row) => row.action === action)?.details;
    expect(details("top_up.requested")).toBe("amount: USD 25.50, reference: FNB 1");
    expect(details("balance.threshold_set")).toBe("threshold: USD 7.50");
    expect(details("rate.set")).toBe("operator: econet, pricePerSegment: USD 0.0350");

    let csv = "";
    for await (const chunk of exportAuditEvents({ accountId: account.id }, {})) csv += chunk;
    expect(csv).toContain("amount: USD 25.50, reference: FNB 1");
  });

  it("filter actors by what the log shows, ignoring case on both engines: the CLI, Tumira, a key's name", async () => {
    const account = await createAccount({
      name: "Audit Actors Ltd",
      currency: "USD",
      openingBalance: 0n,
      senders: ["ACTORS"],
      actor: "system",
    });
    const key = await createApiKey({ accountId: account.id, name: "Production Server", actor: "cli" });
    await pauseCarrier({ operator: "telecel", reason: "SMSC upgrade", actor: "cli" });
    await setRate({ operator: "econet", pricePerSegment: 300n, accountId: account.id, actor: `key:${key.id}` });

    const actionsBy = async (actor: string) => {
      const { rows } = await listAuditEvents({ allAccounts: true }, { actor });
      return rows.map((row) => `${row.actor} ${row.action}`).sort();
    };
    const byCli = ["the CLI carrier.paused", "the CLI key.created"];
    expect(await actionsBy("the CLI")).toEqual(byCli);
    expect(await actionsBy("cli")).toEqual(byCli);
    expect(await actionsBy("tumira")).toEqual(["Tumira account.created", "Tumira sender.added"]);
    const byKey = [`key Production Server (${key.tokenPrefix}…) rate.set`];
    expect(await actionsBy("production")).toEqual(byKey);
    expect(await actionsBy("PRODUCTION SERVER")).toEqual(byKey);
    expect(await actionsBy("nobody at all")).toEqual([]);
    // A sender id added with no stated use: the details leave the empty field out.
    const { rows } = await listAuditEvents({ allAccounts: true }, { action: "sender.added" });
    expect(rows.map((row) => row.details)).toEqual(["name: ACTORS, status: approved"]);

    let csv = "";
    for await (const chunk of exportAuditEvents({ allAccounts: true }, { actor: "The CLI" })) csv += chunk;
    expect(
      csv
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",")[3])
        .sort(),
    ).toEqual(["carrier.paused", "key.created"]);
    // A platform event's account reads as the log shows it, in the log and in its export.
    const accountOf = (action: string) =>
      csv
        .split("\r\n")
        .map((line) => line.split(","))
        .find((cells) => cells[3] === action)?.[1];
    expect(accountOf("carrier.paused")).toBe("Platform");
    expect(accountOf("key.created")).toBe("Audit Actors Ltd");
    const paused = await listAuditEvents({ allAccounts: true }, { action: "carrier.paused" });
    expect(paused.rows.map((row) => row.accountName)).toEqual(["Platform"]);
  });

  it("finds, in an owner's log, the platform admin who acted on the account, by the email the row shows", async () => {
    const account = await createAccount({ name: "Audit Staff Ltd", currency: "USD", openingBalance: 0n, actor: "cli" });
    const admin = await createPlatformAdmin({ email: "finance.admin@platform.test", actor: "cli" });
    await creditBalance({ accountId: account.id, amount: 250_000n, reason: "bank transfer", actor: `user:${admin.id}` });

    const { rows } = await listAuditEvents({ accountId: account.id }, { actor: "finance.admin" });
    expect(rows.map((row) => `${row.actor} ${row.action}`)).toEqual(["finance.admin@platform.test balance.credited"]);
    // Only the account's own events: the admin's creation of their own user is not in this log.
    expect((await listAuditEvents({ accountId: account.id }, { actor: "platform.test" })).rows).toHaveLength(1);
  });
});
