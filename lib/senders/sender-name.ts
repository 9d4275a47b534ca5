import { z } from "zod";

/** The rule of a sender id in words, as the request form's hint gives it: exactly what the pattern below accepts. */
export const SENDER_NAME_RULE = "1-11 letters, digits, spaces or . _ & -, or a number of 3-15 digits (a leading + allowed)";

/** The longest sender id the rule accepts: a number of 15 digits with its leading +. */
export const SENDER_NAME_MAX_LENGTH = 16;

/** GSM alphanumeric originators are at most 11 characters; numeric ones up to 15 digits. */
export const senderNameSchema = z
  .string()
  .trim()
  .min(1, "cannot be blank")
  .regex(/^(?:[A-Za-z0-9 ._&-]{1,11}|\+?\d{3,15})$/, `must be ${SENDER_NAME_RULE}`);

/** The key that makes "acme" and "ACME" one sender id on an account. */
export function senderNameKey(name: string): string {
  return name.trim().toUpperCase();
}

export const senderUseCaseSchema = z
  .string()
  .trim()
  .min(10, "say what you will send from it, e.g. order and delivery updates to our customers")
  .max(300, "must be at most 300 characters");

export const rejectionReasonSchema = z
  .string()
  .trim()
  .min(3, "say why, in a few words; the account sees it")
  .max(300, "must be at most 300 characters");
