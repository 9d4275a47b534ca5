import { z } from "zod";

/** GSM alphanumeric originators are at most 11 characters; numeric ones up to 15 digits. */
export const senderNameSchema = z
  .string()
  .trim()
  .min(1, "cannot be blank")
  .regex(/^(?:[A-Za-z0-9 ._&-]{1,11}|\+?\d{3,15})$/, "must be 1-11 letters, digits, spaces or . _ & -, or a number of up to 15 digits");
