// A server action's text body that Next could not decode (it would answer 500) is named before Next
// reads it; what the dashboard's own forms send passes.
import { describe, expect, it } from "vitest";
import { malformedActionBody } from "@/lib/dashboard/refuse-unsafe-action";

describe("server action text bodies", () => {
  it("passes the arguments the dashboard sends, inline values and escaped dollars included", () => {
    for (const body of [
      "[]",
      '[{"name":"Key","test":false}]',
      '[{"amount":"5.00","reference":"REF","note":"$undefined"}]',
      '[{"reference":"$$5 paid","at":"$D2026-11-28T01:00:00.000Z","big":"$n12","values":["$NaN","$-0","$Infinity"]}]',
    ]) {
      expect(malformedActionBody(body), body).toBeNull();
    }
  });

  it("names a body that is not JSON, not an array, or points at parts only a multipart body has", () => {
    expect(malformedActionBody("{bad json")).toBe("The body is not JSON");
    expect(malformedActionBody("null")).toBe("The body must be the action's arguments as a JSON array");
    expect(malformedActionBody('{"id":"x"}')).toBe("The body must be the action's arguments as a JSON array");
    for (const reference of ["$Q1", "$h1", "$B1", "$@1", "$K1", "$1", "$T"]) {
      expect(malformedActionBody(JSON.stringify([{ id: reference }])), reference).toBe(
        "The body refers to parts only a multipart body has",
      );
      expect(malformedActionBody(JSON.stringify([[reference]])), reference).not.toBeNull();
    }
  });
});
