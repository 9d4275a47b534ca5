// The low-balance threshold an owner sets on the Webhooks page: each refusal names what is wrong with
// the amount, and changes nothing.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { createAccount } from "@/lib/accounts/create-account";
import { AppError } from "@/lib/errors";
import { MAX_BALANCE } from "@/lib/money";
import { setLowBalanceThreshold } from "@/lib/webhooks/low-balance";
import { useTestDatabase } from "../helpers/test-database";

useTestDatabase();

/** The refusal's field error, or "set". */
const outcome = (setting: Promise<unknown>) =>
  setting.then(
    () => "set",
    (error) =>
      error instanceof AppError
        ? `${error.code}: ${error.options.fields?.map((field) => `${field.field} ${field.description}`).join("; ")}`
        : String(error),
  );

describe("the low-balance threshold", () => {
  it("is refused as not positive at zero or below, and as over the balance ceiling above it, keeping the one set", async () => {
    const account = await createAccount({ name: "Threshold Ltd", currency: "USD", openingBalance: 10_000n, actor: "test" });
    const set = (threshold: bigint) => setLowBalanceThreshold({ accountId: account.id, threshold, actor: "test" });
    expect(await outcome(set(75_000n))).toBe("set");

    expect(await outcome(set(0n))).toBe("VALIDATION_ERROR: threshold must be a positive amount");
    expect(await outcome(set(-10_000n))).toBe("VALIDATION_ERROR: threshold must be a positive amount");
    expect(await outcome(set(MAX_BALANCE + 1n))).toBe("VALIDATION_ERROR: threshold must be at most 100000000000.0000");
    expect((await db().account.findUniqueOrThrow({ where: { id: account.id } })).lowBalanceThreshold).toBe(75_000n);

    expect(await outcome(set(MAX_BALANCE))).toBe("set");
  });
});
