import type { RateTable } from "@/lib/dashboard/price-send";
import type { FieldError } from "@/lib/errors";

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
  /** Called after a send is accepted, to empty the message. */
  onSent: () => void;
};

/** The refusal of a send as the user should read it. */
export function sendErrorText(result: { code: string; error: string }): string {
  if (result.code === "INSUFFICIENT_BALANCE")
    return "Insufficient balance: the available balance does not cover this send. Nothing was sent or charged.";
  if (result.code === "RECIPIENT_OPTED_OUT") return "The recipient is on your opt-out list. Nothing was sent or charged.";
  return result.error;
}
