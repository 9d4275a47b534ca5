// Rolling a key (the dashboard's Roll) on a real database: a key is replaced once, so its grace
// period ends when the first roll said and it has one replacement.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { createApiKey } from "@/lib/keys/create-api-key";
import { rollApiKey } from "@/lib/keys/roll-api-key";
import { useTestDatabase } from "../helpers/test-database";
import { seedAccount, type SeededAccount } from "../helpers/api-test-server";

useTestDatabase();
let account: SeededAccount;

beforeAll(async () => {
  account = await seedAccount();
});

const roll = (keyId: string, grace: "now" | "1h" | "7d") => rollApiKey({ accountId: account.accountId, keyId, grace, actor: "test" });

/** The refusal's code and message, or "rolled". */
const outcome = (rolling: Promise<unknown>) =>
  rolling.then(
    () => "rolled",
    (error) => (error instanceof AppError ? `${error.code}: ${error.message}` : String(error)),
  );
const ALREADY_ROLLED = "CONFLICT: This key was already rolled; roll its replacement instead";

const keysNamed = (name: string) => db().apiKey.findMany({ where: { accountId: account.accountId, name } });
const rollsOf = (keyId: string) => db().auditEvent.count({ where: { action: "key.rolled", targetId: keyId } });

describe("rolling a key", () => {
  it("refuses a second roll of a key in its grace period, leaving its end and its one replacement as they were", async () => {
    const key = await createApiKey({ accountId: account.accountId, name: "deploy", actor: "test" });
    const { replacement, old } = await roll(key.id, "1h");

    expect(await outcome(roll(key.id, "7d"))).toBe(ALREADY_ROLLED);
    expect(await outcome(roll(key.id, "now"))).toBe(ALREADY_ROLLED);

    const stored = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored).toMatchObject({ active: true, expiresAt: old.expiresAt });
    expect((await keysNamed("deploy")).map((row) => row.id).sort()).toEqual([key.id, replacement.id].sort());
    expect(await rollsOf(key.id)).toBe(1);
    // The replacement is the key to roll next.
    expect(await outcome(roll(replacement.id, "now"))).toBe("rolled");
  });

  it("of two rolls of one key at the same moment, one replaces it and the other is refused", async () => {
    const key = await createApiKey({ accountId: account.accountId, name: "racing", actor: "test" });
    const outcomes = await Promise.all([outcome(roll(key.id, "1h")), outcome(roll(key.id, "7d"))]);
    expect(outcomes.sort()).toEqual([ALREADY_ROLLED, "rolled"]);
    expect(await keysNamed("racing")).toHaveLength(2);
    expect(await rollsOf(key.id)).toBe(1);
  });
});
