// Assigning inbound numbers to accounts that exist; releasing them by number (the CLI), or one
// assignment by its id as the admin saw it (the dashboard), which never releases an assignment made since.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { assignInboundNumber, releaseInboundAssignment, releaseInboundNumber } from "@/lib/inbound/inbound-numbers";
import { useTestDatabase } from "../helpers/test-database";
import { createSendingAccount } from "../helpers/delivery";

useTestDatabase();

const released = (targetId: string) => db().auditEvent.count({ where: { action: "number.released", targetId } });

describe("assigning inbound numbers", () => {
  it("refuses an account id no account has, storing and auditing nothing", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    const refusal = await assignInboundNumber({ accountId: missing, number: "12345", operator: null, actor: "test" }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe("NOT_FOUND");
    expect(await db().inboundNumber.count({ where: { number: "12345" } })).toBe(0);
    expect(await db().auditEvent.count({ where: { action: "number.assigned" } })).toBe(0);
  });
});

describe("releasing inbound numbers", () => {
  it("releases the assignment seen, and refuses once the number was released and assigned to another account since", async () => {
    const first = await createSendingAccount(1_000n, "First");
    const second = await createSendingAccount(1_000n, "Second");
    const seen = await assignInboundNumber({ accountId: first, number: "+263780000701", operator: null, actor: "test" });
    // Another admin releases it and assigns the number to another account before this one confirms.
    await releaseInboundNumber({ number: "+263780000701", actor: "other admin" });
    const now = await assignInboundNumber({ accountId: second, number: "+263780000701", operator: null, actor: "other admin" });

    const refusal = await releaseInboundAssignment({ id: seen.id, actor: "test" }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect((refusal as AppError).code).toBe("CONFLICT");
    expect(await db().inboundNumber.findUnique({ where: { id: now.id } })).toMatchObject({ accountId: second });
    expect(await released(now.id)).toBe(0);

    expect(await releaseInboundAssignment({ id: now.id, actor: "test" })).toMatchObject({ id: now.id, accountId: second });
    expect(await db().inboundNumber.count({ where: { number: "+263780000701" } })).toBe(0);
    expect(await released(now.id)).toBe(1);
  });

  it("two releases of one assignment at once: one releases it, the other is refused, and one audit event says so", async () => {
    const accountId = await createSendingAccount();
    const row = await assignInboundNumber({ accountId, number: "34567", operator: "econet", actor: "test" });
    const outcomes = await Promise.allSettled([
      releaseInboundAssignment({ id: row.id, actor: "one" }),
      releaseInboundAssignment({ id: row.id, actor: "two" }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await released(row.id)).toBe(1);
  });
});
