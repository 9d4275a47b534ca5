import { describe, expect, it } from "vitest";
import { displayAmount, formatAmount, parseAmount } from "@/lib/money";

describe("money", () => {
  it.each([
    ["100", 1_000_000n], ["100.00", 1_000_000n], ["25.5", 255_000n], ["0.0350", 350n], ["0.0001", 1n], ["-1.25", -12_500n],
  ])("parses %s as %s ten-thousandths", (text, value) => {
    expect(parseAmount(text)).toBe(value);
  });

  it.each(["1.23456", "abc", "", "1,00", "1e3", "+5", "1.", ".5"])("refuses %j", (text) => {
    expect(() => parseAmount(text)).toThrow(/at most four decimals/);
  });

  it("formats and displays", () => {
    expect(formatAmount(1_255_000n)).toBe("125.5000");
    expect(formatAmount(-350n)).toBe("-0.0350");
    expect(displayAmount(1_255_099n, "USD")).toBe("USD 125.50");
  });
});
