// The contracts of the API's response conventions: the two error bodies (spec 7.1, 7.2) and the
// success envelope (spec 2.1). lib/api/respond.ts serialises every error through these; the OpenAPI
// document (lib/api/openapi) publishes the same schemas.
import { z } from "zod";

export const fieldErrorSchema = z
  .object({
    field: z.string().describe("The failing field, e.g. `name` or `to[3]`"),
    description: z.string(),
  })
  .meta({ id: "FieldError" });

export const kitErrorSchema = z
  .object({
    status: z.literal("error"),
    message: z.string(),
    error: z.object({
      code: z.string().describe("Machine-readable code, e.g. UNAUTHORIZED, VALIDATION_ERROR, BAD_REQUEST"),
      description: z.string(),
      validation_errors: z.array(fieldErrorSchema).optional(),
    }),
  })
  .meta({ id: "KitError", description: "Error body of the bulk send, the key and account endpoints, and of every authentication failure" });

export const legacyErrorSchema = z
  .object({
    status: z.literal(""),
    message: z.string(),
    error: z.object({
      type: z.string().describe("Machine-readable type (not `code`), e.g. ERR_BAD_REQUEST, err_not_found"),
      description: z.string(),
      validation_errors: z.array(fieldErrorSchema).optional(),
    }),
  })
  .meta({ id: "LegacyError", description: "Error body of the single send (400) and of reading a message (400, 404)" });

/** The success envelope around `data` (spec 2.1). */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal("success"), message: z.string(), data });
}

/** The envelope without `data` (the key revoke response). */
export const bareEnvelopeSchema = z.object({ status: z.literal("success"), message: z.string() }).meta({ id: "StatusEnvelope" });
