// The one error class of the domain. Domain functions throw AppError with a code; the API layer
// (lib/api/respond.ts) maps each code to a status and to the error shape of the endpoint.

export type ErrorCode =
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "VALIDATION_ERROR"
  | "BAD_REQUEST"
  | "NOT_FOUND"
  | "INSUFFICIENT_BALANCE"
  | "RECIPIENT_OPTED_OUT"
  | "CONFLICT"
  | "IDEMPOTENCY_MISMATCH"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "RATE_LIMITED"
  | "METHOD_NOT_ALLOWED"
  | "CLIENT_CLOSED_REQUEST"
  | "SERVICE_UNAVAILABLE"
  | "INTERNAL";

export type FieldError = { field: string; description: string };

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { description?: string; fields?: FieldError[]; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get description(): string {
    return this.options.description ?? this.message;
  }

  static validation(fields: FieldError[]): AppError {
    return new AppError("VALIDATION_ERROR", "Validation failed", {
      description: "One or more fields failed validation",
      fields,
    });
  }

  static notFound(resource: string): AppError {
    return new AppError("NOT_FOUND", `${resource} not found`, {
      description: `The requested ${resource.toLowerCase()} does not exist`,
    });
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
