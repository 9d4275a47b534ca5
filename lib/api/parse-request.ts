// Request input of the API: JSON bodies parsed with the endpoint's zod schema, ids in paths. What
// fails becomes an AppError that names the field; the route's error shape decides the body.
import { isUtf8 } from "node:buffer";
import { z } from "zod";
import { AppError, type FieldError } from "@/lib/errors";
import { parseRfc3339 } from "@/lib/model/rfc3339";
import { isStorableTime } from "@/lib/model/storable-time";
import { isStorableText, NOT_TEXT_DESCRIPTION } from "@/lib/text";
import type { ApiContext } from "./route";

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id in canonical (lower case) form when the text is a UUID, else null. */
export function parseUuid(text: string): string | null {
  return UUID_PATTERN.test(text) ? text.toLowerCase() : null;
}

/**
 * "cannot be blank" for a missing field (the spec's wording), "must be a string" for a wrong type,
 * `must be "normal" or "high"` for a value outside a field's list.
 */
const describeIssue: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === "invalid_value") return `must be ${listOfValues(issue.values)}`;
  if (issue.code !== "invalid_type") return undefined;
  if (issue.input === undefined || issue.input === null) return "cannot be blank";
  return `must be ${issue.expected === "array" || issue.expected === "object" ? "an" : "a"} ${issue.expected}`;
};

function listOfValues(values: readonly unknown[]): string {
  const quoted = values.map((value) => JSON.stringify(value));
  return quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

/** `to[3]`, `options.flash`: the path of an issue as a client names the field. */
function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>(
    (name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    "",
  );
}

/** One entry per failing field, its first problem, in the order zod found them. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  const fields = new Map<string, string>();
  for (const issue of error.issues) {
    const field = fieldName(issue.path);
    if (!fields.has(field)) fields.set(field, issue.message);
  }
  return [...fields].map(([field, description]) => ({ field, description }));
}

function malformedJson(description = "The request body must be a JSON object"): AppError {
  return new AppError("BAD_REQUEST", "Malformed JSON body", { description });
}

/**
 * Reads the JSON object of a request body; an empty body reads as {} so missing fields are named.
 * JSON travels in UTF-8: a body in another encoding is refused, never sent with its letters replaced.
 */
function readJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  if (!isUtf8(body)) throw malformedJson("The request body must be JSON encoded in UTF-8");
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8").replace(/^\uFEFF/, ""));
  } catch {
    throw malformedJson();
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw malformedJson();
  return value as Record<string, unknown>;
}

/** Parses a JSON body with the endpoint's schema; a failure is a VALIDATION_ERROR naming each field. */
export function parseJsonBody<S extends z.ZodType>(body: Buffer, schema: S): z.output<S> {
  const parsed = schema.safeParse(readJsonObject(body), { error: describeIssue });
  if (!parsed.success) throw AppError.validation(toFieldErrors(parsed.error));
  return parsed.data;
}

/**
 * A request's JSON body: declared JSON by its Content-Type (anything else is a clear 400), then
 * parsed with the schema. A bodiless request needs no Content-Type; it reads as {}.
 */
export function parseJsonRequest<S extends z.ZodType>(context: Pick<ApiContext, "headers" | "body">, schema: S): z.output<S> {
  const mediaType = (context.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (context.body.length > 0 && mediaType !== "application/json") {
    throw new AppError("BAD_REQUEST", "Unsupported Content-Type", {
      description: "Send the body as JSON with the header Content-Type: application/json",
    });
  }
  return parseJsonBody(context.body, schema);
}

/**
 * A page size in a query string: a whole number from 1 to `max`, documented as the integer it is
 * (the query string carries it as text, which is checked here).
 */
export function queryLimitSchema(max: number, defaultLimit: number, description: string) {
  const error = `must be a whole number from 1 to ${max}`;
  return z
    .string()
    .regex(/^\d+$/, error)
    .refine((text) => Number(text) >= 1 && Number(text) <= max, error)
    .meta({ type: "integer", pattern: undefined, minimum: 1, maximum: max, default: defaultLimit, description });
}

/** A time whose offset's + a query string turned into a space, as an unencoded + in a URL reads. */
const OFFSET_PLUS_DECODED = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)? \d{2}:\d{2}$/;

/** A time a list is filtered by: RFC 3339 with its offset, in the years 0001 to 9999 once in UTC. */
export function queryTimeSchema(description: string) {
  return z
    .string()
    .superRefine((text, context) => {
      const time = parseRfc3339(text);
      if (!time) {
        context.addIssue({
          code: "custom",
          message: OFFSET_PLUS_DECODED.test(text)
            ? "must be an RFC 3339 time: write the + of its offset as %2B in a query string (2026-01-31T00:00:00%2B02:00)"
            : "must be an RFC 3339 time, e.g. 2026-01-31T00:00:00Z",
        });
      } else if (!isStorableTime(time)) context.addIssue({ code: "custom", message: "must be a time in the years 0001 to 9999" });
    })
    .meta({ format: "date-time", description, example: "2026-01-31T00:00:00Z" });
}

/**
 * The query string's value of each of the shape's (optional) fields, as its schema reads it (a
 * recipient in E.164, say); the fields that fail, each named once. A field given more than once
 * fails too (which value the client meant is not ours to guess), and so does one that is not text (a
 * NUL, half a surrogate pair).
 */
export function readQueryFields(
  url: string,
  shape: Readonly<Record<string, z.ZodOptional<z.ZodType<string, string>>>>,
): { values: Record<string, string>; fields: FieldError[] } {
  const params = new URL(url).searchParams;
  const values: Record<string, string> = {};
  const fields: FieldError[] = [];
  for (const [name, schema] of Object.entries(shape)) {
    const given = params.getAll(name);
    if (given.length === 0) continue;
    if (given.length > 1) {
      fields.push({ field: name, description: "must be given once" });
      continue;
    }
    if (!isStorableText(given[0])) {
      fields.push({ field: name, description: NOT_TEXT_DESCRIPTION });
      continue;
    }
    const parsed = schema.unwrap().safeParse(given[0]);
    if (parsed.success) values[name] = parsed.data;
    else fields.push({ field: name, description: parsed.error.issues[0].message });
  }
  return { values, fields };
}
