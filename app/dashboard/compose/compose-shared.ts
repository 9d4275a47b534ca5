import type { RateTable } from "@/lib/dashboard/price-send";
import type { FieldError } from "@/lib/errors";
import { localTimeToInstant } from "@/lib/model/time-zones";

export type RecipientsProps = {
  from: string;
  body: string;
  segments: number;
  rates: RateTable;
  currency: string;
  available: string;
  fields: FieldError[] | undefined;
  onFields: (fields: FieldError[] | undefined) => void;
  /** Drops the server's error on one field when the user edits it. */
  onClearField: (name: string) => void;
  /** A send starts: the errors shown are cleared, and edits from now on outdate its answer's. */
  onSendStart: () => void;
  /** Called after a send is accepted, to empty the message. */
  onSent: () => void;
  /** The delivery choices as request fields (deliveryFields). */
  delivery: DeliveryFields;
};

/** Priority, schedule (a datetime-local value in the account's time zone, or "") and validity in seconds (or ""). */
export type DeliveryChoice = { priority: "normal" | "high"; sendAt: string; validityPeriod: string };
export type DeliveryFields = { priority?: "high"; send_at?: string; validity_period?: number };

export const NO_DELIVERY_CHOICE: DeliveryChoice = { priority: "normal", sendAt: "", validityPeriod: "" };

/** The choices as the send request's fields, the schedule read in the account's zone; one the browser cannot read is passed on for the server to refuse. */
export function deliveryFields(choice: DeliveryChoice, timeZone: string): DeliveryFields {
  const at = choice.sendAt ? localTimeToInstant(choice.sendAt, timeZone) : null;
  return {
    ...(choice.priority === "high" ? { priority: "high" as const } : {}),
    ...(choice.sendAt ? { send_at: at ? at.toISOString() : choice.sendAt } : {}),
    ...(choice.validityPeriod ? { validity_period: Number(choice.validityPeriod) } : {}),
  };
}

/** The refusal of a send as the user should read it. */
export function sendErrorText(result: { code: string; error: string }): string {
  if (result.code === "INSUFFICIENT_BALANCE")
    return "Insufficient balance: the available balance does not cover this send. Nothing was sent or charged.";
  if (result.code === "RECIPIENT_OPTED_OUT") return "The recipient is on your opt-out list. Nothing was sent or charged.";
  return result.error;
}
