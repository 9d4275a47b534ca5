import { z } from "zod";
import { db, sql } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { formatAmount, MAX_BALANCE } from "@/lib/money";
import { applyLedgerEntry } from "@/lib/ledger/apply-ledger-entry";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { addSender } from "@/lib/senders/add-sender";
import { createUser } from "@/lib/users/create-user";

export const currencySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "must be a three-letter currency code");

/** The longest name an account may have. */
export const ACCOUNT_NAME_MAX_LENGTH = 120;

export async function createAccount(input: {
  name: string;
  currency: string;
  openingBalance: bigint;
  senders?: string[];
  owner?: { email: string; password: string };
  actor: string;
}): Promise<{ id: string; name: string; currency: string; ownerEmail?: string }> {
  const name = z.string().trim().min(1).max(ACCOUNT_NAME_MAX_LENGTH).safeParse(input.name);
  const currency = currencySchema.safeParse(input.currency);
  const fields = [
    ...(name.success ? [] : [{ field: "name", description: "cannot be blank" }]),
    ...(currency.success ? [] : [{ field: "currency", description: currency.error.issues[0].message }]),
    ...(input.openingBalance < 0n ? [{ field: "balance", description: "must not be negative" }] : []),
    ...(input.openingBalance > MAX_BALANCE ? [{ field: "balance", description: `must be at most ${formatAmount(MAX_BALANCE)}` }] : []),
  ];
  if (fields.length > 0) throw AppError.validation(fields);

  const account = await db().account.create({ data: { name: name.data!, currency: currency.data! } });
  await recordAuditEvent({
    accountId: account.id,
    actor: input.actor,
    action: "account.created",
    targetType: "account",
    targetId: account.id,
    data: { name: account.name, currency: account.currency },
  });
  if (input.openingBalance > 0n) {
    await sql().transaction((tx) =>
      applyLedgerEntry(tx, {
        accountId: account.id,
        kind: "credit",
        amount: input.openingBalance,
        reason: "opening balance",
        actor: input.actor,
        requireCover: false,
      }),
    );
  }
  for (const sender of input.senders ?? []) {
    await addSender({ accountId: account.id, name: sender, approved: true, actor: input.actor });
  }
  const owner = input.owner ? await createUser({ ...input.owner, role: "owner", accountId: account.id, actor: input.actor }) : undefined;
  return { id: account.id, name: account.name, currency: account.currency, ownerEmail: owner?.email };
}
