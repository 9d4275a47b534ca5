import { describe, expect, it } from "vitest";
import { optOutKeywordOf } from "@/lib/opt-outs/opt-out-keywords";

describe("opt-out keywords", () => {
  it("reads a whole message as a keyword, ignoring case, surrounding spaces and punctuation", () => {
    expect(optOutKeywordOf("STOP")).toEqual({ keyword: "STOP", optOut: true });
    expect(optOutKeywordOf(" stop! ")).toEqual({ keyword: "STOP", optOut: true });
    expect(optOutKeywordOf("Unsubscribe.")).toEqual({ keyword: "UNSUBSCRIBE", optOut: true });
    expect(optOutKeywordOf("...quit")).toEqual({ keyword: "QUIT", optOut: true });
    expect(optOutKeywordOf("Start")).toEqual({ keyword: "START", optOut: false });
    expect(optOutKeywordOf("unstop")).toEqual({ keyword: "UNSTOP", optOut: false });
  });

  it("reads a keyword beside emoji, with the joiners and variation selectors that make them up", () => {
    for (const text of ["STOP ⛔️", "Stop ❤️", "stop 🤦🏾‍♀️", "STOP\u200B"])
      expect(optOutKeywordOf(text)).toEqual({ keyword: "STOP", optOut: true });
    expect(optOutKeywordOf("👍 start")).toEqual({ keyword: "START", optOut: false });
  });

  it("reads full-width and other compatibility letters as the keyword they spell", () => {
    for (const text of ["ＳＴＯＰ", "ｓｔｏｐ", "𝐒𝐓𝐎𝐏", "ＳＴＯＰ！"])
      expect(optOutKeywordOf(text)).toEqual({ keyword: "STOP", optOut: true });
    expect(optOutKeywordOf("ＳＴＡＲＴ")).toEqual({ keyword: "START", optOut: false });
  });

  it("is no keyword in a sentence, a near miss or an empty message", () => {
    for (const text of ["please stop sending", "STOP IT", "stopp", "s t o p", "", "   ", "STOP\nNOW"])
      expect(optOutKeywordOf(text)).toBeNull();
  });

  it("reads the account's own keywords beside the built-in ones", () => {
    const own = { stopKeywords: ["MIRA", "IMA"], startKeywords: ["TANGA"] };
    expect(optOutKeywordOf(" mira. ", own)).toEqual({ keyword: "MIRA", optOut: true });
    expect(optOutKeywordOf("Tanga!", own)).toEqual({ keyword: "TANGA", optOut: false });
    expect(optOutKeywordOf("stop", own)).toEqual({ keyword: "STOP", optOut: true });
    expect(optOutKeywordOf("mira")).toBeNull();
    expect(optOutKeywordOf("mira ima", own)).toBeNull();
  });
});
