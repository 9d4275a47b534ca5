// Writes validated sends: one bulk send, or a batch of concurrent single sends (group commit). Each
// send is evaluated on its own (key still usable, sender approved, charge covered) and is accepted
// or refused whole; a refusal writes nothing for that send and does not affect the others. The
// message store of the engine writes them (lib/db/stores); the pricing rule is here.
import { getStores } from "@/lib/db/stores";
import { AppError } from "@/lib/errors";
import { metrics } from "@/lib/metrics";
import { operators, type Operator } from "@/lib/carriers/operators";
import { AcceptedMessage, type AcceptedSend, type PreparedSend, type SendFields, type SendingAccount } from "@/lib/model/sends";
import type { SendOutcome } from "@/lib/db/stores/types";
import { timeOrderedUuid } from "@/lib/model/ids";
import { withoutOptedOut } from "./opt-out-check";
import { emitBalanceLowCrossings } from "@/lib/webhooks/low-balance";
import { sql } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { hasStatusEndpoints, refreshEndpointCache } from "@/lib/webhooks/account-events";
import { queueStatusChanges, type StatusChange } from "@/lib/webhooks/status-events";
import { servingTurn, takeTurns, TURN_SLOT_MS } from "./queue-turns";

export { AcceptedMessage, IdempotencyKeyTakenError } from "@/lib/model/sends";
export type { AcceptedSend, IdempotencyRecord, PreparedSend } from "@/lib/model/sends";

const STATUS_EVENT_CHUNK = 1000;

export async function commitSends(sends: PreparedSend[]): Promise<SendOutcome[]> {
  const outcomes = await getStores().messages.commitSends(sends, priceSend);
  const accepted = outcomes.reduce((count, outcome) => count + (outcome instanceof Error ? 0 : outcome.messages.length), 0);
  if (accepted > 0) metrics().messagesAccepted.inc(accepted);
  await emitBalanceLowCrossings(
    sends.filter((send, index) => !send.test && !(outcomes[index] instanceof Error)).map((send) => send.accountId),
  );
  await queueAcceptedStatuses(sends, outcomes);
  return outcomes;
}

/**
 * message.status (created or enqueued) for the accepted messages of accounts with status endpoints,
 * once they are committed. The sends stand whatever happens here: a failure is logged, not answered.
 */
async function queueAcceptedStatuses(sends: PreparedSend[], outcomes: SendOutcome[]): Promise<void> {
  await refreshEndpointCache();
  const changes: StatusChange[] = [];
  sends.forEach((send, index) => {
    const outcome = outcomes[index];
    if (outcome instanceof Error || !hasStatusEndpoints(send.accountId)) return;
    for (const message of outcome.messages) changes.push({ accountId: send.accountId, message });
  });
  try {
    // A bulk send's events a chunk at a time: each chunk's payloads are held only while it is written.
    for (let offset = 0; offset < changes.length; offset += STATUS_EVENT_CHUNK) {
      const chunk = changes.slice(offset, offset + STATUS_EVENT_CHUNK);
      await sql().transaction((tx) => queueStatusChanges(tx, chunk, chunk[0].message.createdAt));
    }
  } catch (error) {
    logger.error({ err: error, messages: changes.length }, "message.status events of accepted messages not queued");
  }
}

/** Prices a send and, when its account can pay, takes the charge from the account's balance as read. */
export function priceSend(send: PreparedSend, account: SendingAccount, now: Date): AcceptedSend | AppError {
  if (!account.approvedSenders.has(send.senderName)) {
    return new AppError("BAD_REQUEST", "Sender id not approved", {
      description: `"${send.senderName}" is not an approved sender id of this account`,
      fields: [{ field: "from", description: "is not an approved sender id of this account" }],
    });
  }
  const sendable = send.optOutConfirmation
    ? { recipients: send.recipients, optedOut: [] }
    : withoutOptedOut(send.recipients, account.optedOut, send.bulk);
  if (sendable instanceof AppError) return sendable;
  const segments = BigInt(send.segments);
  const charges = {
    econet: segments * account.rates.econet,
    netone: segments * account.rates.netone,
    telecel: segments * account.rates.telecel,
  };
  // Counted per carrier, then priced: no BigInt per recipient.
  const counts = { econet: 0, netone: 0, telecel: 0 };
  for (const recipient of sendable.recipients) counts[recipient.operator]++;
  const total = operators.reduce((sum, operator) => sum + BigInt(counts[operator]) * charges[operator], 0n);
  if (!send.test) {
    if (account.balance < total) {
      return new AppError("INSUFFICIENT_BALANCE", "Insufficient balance", {
        description: `The prepaid balance does not cover this send: it costs ${total} and ${account.balance} is available (ten-thousandths of ${account.currency})`,
      });
    }
    account.balance -= total;
  }
  const fields: SendFields = {
    bulkSendId: send.bulk ? timeOrderedUuid() : null,
    body: send.body,
    senderId: send.senderName,
    currency: account.currency,
    segments: send.segments,
    encoding: send.encoding,
    webhookUrl: send.webhookUrl,
    test: send.test,
    acceptedAt: now,
    control: send.control,
    expiresAt: expiryOf(send, now),
    charges,
  };
  const turnsTo = (operator: Operator): number => {
    if (counts[operator] === 0) return 0;
    const at = now.getTime();
    const { priority, sendAt } = send.control;
    return takeTurns(send.accountId, operator, send.test, counts[operator], {
      now: at,
      priority,
      sendAt,
      serving: servingTurn(operator, send.test, at),
    });
  };
  const next = { econet: turnsTo("econet"), netone: turnsTo("netone"), telecel: turnsTo("telecel") };
  const messages = sendable.recipients.map((recipient) => {
    const turn = next[recipient.operator];
    next[recipient.operator] += TURN_SLOT_MS;
    return new AcceptedMessage(timeOrderedUuid(), recipient.to, recipient.operator, fields, turn);
  });
  return { bulkSendId: fields.bulkSendId, currency: account.currency, charge: total, messages, optedOut: sendable.optedOut };
}

/** The validity runs from the send's time: its send_at, else its acceptance. */
function expiryOf(send: PreparedSend, now: Date): Date | null {
  const { sendAt, validityPeriod } = send.control;
  if (validityPeriod === null) return null;
  return new Date((sendAt ?? now).getTime() + validityPeriod * 1000);
}
