import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestLog } from "@/lib/api/request-log";
import { logger } from "@/lib/log";

afterEach(() => vi.restoreAllMocks());

describe("RequestLog", () => {
  it("writes a line with the request's bindings, a child's added ones and the line's details", () => {
    vi.spyOn(logger, "isLevelEnabled").mockReturnValue(true);
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const log = new RequestLog({ requestId: "r-1" }).child({ accountId: "a-1", keyId: "k-1" });
    log.error({ route: "/api/v1/sms" }, "request failed");
    expect(error).toHaveBeenCalledWith({ requestId: "r-1", accountId: "a-1", keyId: "k-1", route: "/api/v1/sms" }, "request failed");
  });

  it("leaves the parent's bindings as they were", () => {
    vi.spyOn(logger, "isLevelEnabled").mockReturnValue(true);
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const parent = new RequestLog({ requestId: "r-2" });
    parent.child({ accountId: "a-2" });
    parent.error({}, "plain");
    expect(error).toHaveBeenCalledWith({ requestId: "r-2" }, "plain");
  });

  it("writes nothing below the logger's level", () => {
    const debug = vi.spyOn(logger, "debug");
    vi.spyOn(logger, "isLevelEnabled").mockReturnValue(false);
    new RequestLog({ requestId: "r-3" }).debug({ status: 202 }, "request");
    expect(debug).not.toHaveBeenCalled();
  });
});
