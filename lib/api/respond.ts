// The spec's response conventions, in one place: the success envelope, the bare object of the
// single send, and the two error shapes ("legacy" and "kit", spec section 7). Routes declare which
// error shape they use; authentication failures always use the kit shape (spec 5, 7.3).
import { AppError, type ErrorCode, type FieldError } from "@/lib/errors";
import { kitErrorSchema, legacyErrorSchema } from "./response-schemas";

export type ErrorShape = "legacy" | "kit";

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/**
 * Response headers by lower-case name. A plain object, not a Web Headers: undici's Headers validates
 * and normalises every name and value (a few µs a request), and node:http takes an object as it is.
 */
export type HeaderMap = Record<string, string>;

export type ApiBody = string | Iterable<string> | AsyncIterable<string>;

export function isAsyncBody(body: ApiBody): body is AsyncIterable<string> {
  return typeof body !== "string" && Symbol.asyncIterator in body;
}

/**
 * What API handlers answer: status, headers and the finished body. Not a Web Response, which wraps
 * the body in a stream that must be read back (docs/decisions/0001-own-http1-path.md): the lean path
 * writes this as it is, and Next's route handler converts it with toWebResponse. A body of chunks (a
 * bulk send's 100,000 items) is written as it is produced, never held whole; it can be read once. A
 * body read from the database as it is written (an export) is an async iterable of chunks.
 */
export class ApiResponse {
  readonly headers: HeaderMap;

  constructor(
    readonly status: number,
    readonly body: ApiBody,
    headers: HeaderMap = {},
  ) {
    this.headers = { ...headers };
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
}

/** The whole body as one string, for what must keep or rewrite it (idempotent replays, Next). */
export function bodyText(response: ApiResponse): string {
  const { body } = response;
  if (typeof body === "string") return body;
  if (isAsyncBody(body)) throw new Error("bodyText: a streamed body is read as it is written");
  return [...body].join("");
}

/** The whole of any body, for an HTTP/1.0 client, which cannot take chunks. */
export async function collectBody(body: ApiBody): Promise<string> {
  if (!isAsyncBody(body)) return typeof body === "string" ? body : [...body].join("");
  let text = "";
  for await (const chunk of body) text += chunk;
  return text;
}

export function toWebResponse(response: ApiResponse): Response {
  const { body } = response;
  if (!isAsyncBody(body)) return new Response(bodyText(response), { status: response.status, headers: response.headers });
  const chunks = body[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
  return new Response(stream, { status: response.status, headers: response.headers });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return new ApiResponse(status, JSON.stringify(body), Object.assign({}, JSON_HEADERS, headers));
}

/** Envelope of every endpoint but the single send (spec 2.1); data absent when undefined. */
export function envelope(status: number, message: string, data?: unknown, headers?: Record<string, string>): ApiResponse {
  return json(status, data === undefined ? { status: "success", message } : { status: "success", message, data }, headers);
}

/** The envelope with its `data` given as JSON text in chunks, written as they come. */
export function streamedEnvelope(status: number, message: string, data: Iterable<string>): ApiResponse {
  function* chunks(): Generator<string> {
    yield `{"status":"success","message":${JSON.stringify(message)},"data":`;
    yield* data;
    yield "}";
  }
  return new ApiResponse(status, chunks(), JSON_HEADERS);
}

const httpStatus: Record<ErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  NOT_FOUND: 404,
  INSUFFICIENT_BALANCE: 422,
  RECIPIENT_OPTED_OUT: 422,
  CONFLICT: 409,
  IDEMPOTENCY_MISMATCH: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  METHOD_NOT_ALLOWED: 405,
  // nginx's status for a request its client abandoned; never written, the connection is gone.
  CLIENT_CLOSED_REQUEST: 499,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** Kit codes (spec 7.2); codes the spec shows keep its names. */
const kitCode: Record<ErrorCode, string> = {
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  VALIDATION_ERROR: "VALIDATION_ERROR",
  BAD_REQUEST: "BAD_REQUEST",
  NOT_FOUND: "NOT_FOUND",
  INSUFFICIENT_BALANCE: "UNPROCESSABLE_ENTITY",
  RECIPIENT_OPTED_OUT: "RECIPIENT_OPTED_OUT",
  CONFLICT: "CONFLICT",
  IDEMPOTENCY_MISMATCH: "IDEMPOTENCY_KEY_REUSED",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "UNSUPPORTED_MEDIA_TYPE",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  METHOD_NOT_ALLOWED: "METHOD_NOT_ALLOWED",
  CLIENT_CLOSED_REQUEST: "CLIENT_CLOSED_REQUEST",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

/** Legacy types (spec 7.1): `ERR_BAD_REQUEST` and `err_not_found` are the spec's; the rest follow them. */
const legacyType: Record<ErrorCode, string> = {
  UNAUTHORIZED: "ERR_UNAUTHORIZED",
  FORBIDDEN: "ERR_FORBIDDEN",
  VALIDATION_ERROR: "ERR_BAD_REQUEST",
  BAD_REQUEST: "ERR_BAD_REQUEST",
  NOT_FOUND: "err_not_found",
  INSUFFICIENT_BALANCE: "ERR_INSUFFICIENT_BALANCE",
  RECIPIENT_OPTED_OUT: "ERR_RECIPIENT_OPTED_OUT",
  CONFLICT: "ERR_CONFLICT",
  IDEMPOTENCY_MISMATCH: "ERR_IDEMPOTENCY_KEY_REUSED",
  PAYLOAD_TOO_LARGE: "ERR_PAYLOAD_TOO_LARGE",
  UNSUPPORTED_MEDIA_TYPE: "ERR_UNSUPPORTED_MEDIA_TYPE",
  RATE_LIMITED: "ERR_TOO_MANY_REQUESTS",
  METHOD_NOT_ALLOWED: "ERR_METHOD_NOT_ALLOWED",
  CLIENT_CLOSED_REQUEST: "ERR_CLIENT_CLOSED_REQUEST",
  SERVICE_UNAVAILABLE: "ERR_SERVICE_UNAVAILABLE",
  INTERNAL: "ERR_INTERNAL",
};

export function statusOf(code: ErrorCode): number {
  return httpStatus[code];
}

function validationErrors(fields: FieldError[] | undefined): { validation_errors?: FieldError[] } {
  return fields && fields.length > 0 ? { validation_errors: fields } : {};
}

export function errorResponse(error: AppError, shape: ErrorShape, headers: Record<string, string> = {}): ApiResponse {
  const effectiveShape = error.code === "UNAUTHORIZED" ? "kit" : shape;
  const extraHeaders = { ...headers };
  if (error.options.retryAfterSeconds !== undefined) extraHeaders["retry-after"] = String(error.options.retryAfterSeconds);
  // RFC 6750: a 401 names the scheme the client should use.
  if (error.code === "UNAUTHORIZED") extraHeaders["www-authenticate"] = 'Bearer realm="tumira"';
  const body =
    effectiveShape === "kit"
      ? kitErrorSchema.parse({
          status: "error",
          message: error.message,
          error: { code: kitCode[error.code], description: error.description, ...validationErrors(error.options.fields) },
        })
      : legacyErrorSchema.parse({
          status: "",
          message: error.message,
          error: { type: legacyType[error.code], description: error.description, ...validationErrors(error.options.fields) },
        });
  return json(httpStatus[error.code], body, extraHeaders);
}

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("INTERNAL", "Internal server error", { description: "An unexpected error occurred; it has been logged" });
}
