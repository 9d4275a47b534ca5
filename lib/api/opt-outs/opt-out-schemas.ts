// Contracts of the opt-out endpoints (Tumira's design): snake case and the envelope, like the account endpoints.
import { z } from "zod";
import { queryLimitSchema } from "@/lib/api/parse-request";
import { decodeOptOutCursor, MAX_OPT_OUT_PAGE, NOT_AN_OPT_OUT_CURSOR, type OptOut, type OptOutPage } from "@/lib/opt-outs/opt-outs";

export const optOutSchema = z
  .object({
    number: z.string().describe("The number in E.164 (+2637XXXXXXXX), however it was written when added"),
    created_by: z
      .string()
      .describe(
        'Who added it: "key:<id>" (an API key), "user:<id>" (a dashboard member) or "keyword:<KEYWORD>" (an inbound keyword from that number)',
      ),
    created_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: "OptOut" });

export const optOutPageSchema = z
  .object({
    items: z.array(optOutSchema).describe("Newest first"),
    next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page"),
  })
  .meta({ id: "OptOutPage" });

export const DEFAULT_OPT_OUT_PAGE = 100;

/** The list's query string, as a client writes it. */
export const optOutListQuerySchema = z.object({
  limit: queryLimitSchema(
    MAX_OPT_OUT_PAGE,
    DEFAULT_OPT_OUT_PAGE,
    `Entries per page, 1 to ${MAX_OPT_OUT_PAGE} (default ${DEFAULT_OPT_OUT_PAGE})`,
  ).optional(),
  cursor: z
    .string()
    .refine((text) => decodeOptOutCursor(text) !== null, NOT_AN_OPT_OUT_CURSOR)
    .optional()
    .describe("`next_cursor` of the previous page"),
});

export const addOptOutRequestSchema = z
  .object({
    number: z.string().describe("A Zimbabwe mobile number in any written form: +263771234567, 263771234567, 0771234567, 077 123 4567"),
  })
  .meta({ id: "AddOptOutRequest" });

export function serializeOptOut(optOut: OptOut): z.infer<typeof optOutSchema> {
  return { number: optOut.number, created_by: optOut.actor, created_at: optOut.createdAt.toISOString() };
}

export function serializeOptOutPage(page: OptOutPage): z.infer<typeof optOutPageSchema> {
  return { items: page.optOuts.map(serializeOptOut), next_cursor: page.nextCursor };
}
