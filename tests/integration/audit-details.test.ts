// The audit log's details show recorded money in the account's currency, not in stored units.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { requestTopUp } from "@/lib/ledger/request-top-up";
import { setLowBalanceThreshold } from "@/lib/webhooks/low-balance";
import { setRate } from "@/lib/rates/rates";
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
});
