// Contracts of the account-scoped endpoints, which the spec names but does not show (spec 2.6, 4.7).
// Snake case like the spec's newer shapes; money is integer ten-thousandths like the bulk charge.
import { z } from "zod";
import type { Balance } from "@/lib/ledger/get-balance";
import type { SenderIdRecord } from "@/lib/senders/add-sender";
import { senderNameSchema } from "@/lib/senders/sender-name";

export const balanceSchema = z
  .object({
    account_id: z.uuid(),
    available: z.int().describe("Spendable balance in ten-thousandths of `currency` (10000 equals 1.00); holds are already taken from it"),
    held: z.int().describe("Charges held for live messages not yet final, in ten-thousandths"),
    currency: z.string().describe("ISO 4217 code"),
  })
  .meta({ id: "Balance" });

export const senderIdStatusSchema = z.enum(["approved", "pending", "rejected"]);

export const senderIdSchema = z
  .object({
    id: z.uuid(),
    sender_id: z.string().describe("The name recipients see, the `from` of a send"),
    status: senderIdStatusSchema.describe(
      "Only approved sender ids can send; new requests are pending until an administrator approves them",
    ),
    created_at: z.iso.datetime({ offset: true }),
    approved_at: z.iso.datetime({ offset: true }).nullable(),
  })
  .meta({ id: "SenderId" });

export const createSenderIdRequestSchema = z.object({ sender_id: senderNameSchema }).meta({ id: "CreateSenderIdRequest" });

export function serializeBalance(accountId: string, balance: Balance): z.infer<typeof balanceSchema> {
  return balanceSchema.parse({
    account_id: accountId,
    available: Number(balance.available),
    held: Number(balance.held),
    currency: balance.currency,
  });
}

export function serializeSenderId(sender: SenderIdRecord): z.infer<typeof senderIdSchema> {
  return senderIdSchema.parse({
    id: sender.id,
    sender_id: sender.name,
    status: sender.status,
    created_at: sender.createdAt.toISOString(),
    approved_at: sender.approvedAt?.toISOString() ?? null,
  });
}
