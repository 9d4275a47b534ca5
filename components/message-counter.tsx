"use client";

import { MAX_SEGMENTS, segmentMessage } from "@/lib/messages/segments";
import { operators } from "@/lib/carriers/operators";
import { carrierName, encodingName } from "@/lib/messages/vocabulary";
import { Money } from "./money";
import type { RateTable } from "@/lib/dashboard/price-send";
import { Badge } from "./ui/badge";

const LIMITS = { gsm7: { single: 160, part: 153 }, ucs2: { single: 70, part: 67 } } as const;

function describeCharacter(char: string): string {
  const code = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `U+${code}`;
}

/** Live count of what a body costs: encoding, characters, segments, the price per carrier, and what forced UCS-2. */
export function MessageCounter({ body, rates, currency }: { body: string; rates: RateTable; currency: string }) {
  const segmented = segmentMessage(body);
  const limits = LIMITS[segmented.encoding];
  const capacity = segmented.segments === 1 ? limits.single : segmented.segments * limits.part;
  const tooLong = segmented.segments > MAX_SEGMENTS;
  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50/70 p-4 text-sm" data-testid="message-counter">
      <dl className="grid grid-cols-3 gap-3">
        <div>
          <dt className="text-xs text-slate-500">Encoding</dt>
          <dd className="mt-0.5" data-testid="counter-encoding">
            <Badge tone={segmented.encoding === "gsm7" ? "green" : "amber"}>{encodingName(segmented.encoding)}</Badge>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Characters</dt>
          <dd className="mt-0.5 font-medium text-slate-900 tabular-nums" data-testid="counter-characters">
            {segmented.units} / {capacity}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Segments</dt>
          <dd className={`mt-0.5 font-medium tabular-nums ${tooLong ? "text-red-700" : "text-slate-900"}`} data-testid="counter-segments">
            {body ? segmented.segments : 0}
          </dd>
        </div>
      </dl>
      {tooLong && (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-xs text-red-800" data-testid="counter-too-long">
          Too long to send: {segmented.segments} parts, and a message may have at most {MAX_SEGMENTS} ({MAX_SEGMENTS * limits.part}{" "}
          {encodingName(segmented.encoding)} characters). Shorten it by at least {segmented.units - MAX_SEGMENTS * limits.part} characters.
        </p>
      )}
      {segmented.nonGsmCharacters.length > 0 && (
        <div className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900" data-testid="ucs2-characters">
          <p className="text-xs font-medium">
            These characters force UCS-2 ({LIMITS.ucs2.single} characters per SMS instead of {LIMITS.gsm7.single}):
          </p>
          <ul className="mt-1.5 flex flex-wrap gap-1.5">
            {segmented.nonGsmCharacters.map((char) => (
              <li
                key={char}
                className="inline-flex items-center gap-1 rounded border border-amber-300 bg-white px-1.5 py-0.5 font-mono text-xs"
              >
                <span className="text-sm">{char.trim() ? char : "␣"}</span>
                <span className="text-amber-700">{describeCharacter(char)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div>
        <p className="text-xs text-slate-500">Price per recipient</p>
        <ul className="mt-1 grid grid-cols-3 gap-3" data-testid="counter-prices">
          {operators.map((operator) => (
            <li key={operator}>
              <span className="block text-xs text-slate-500">{carrierName(operator)}</span>
              <Money
                value={BigInt(body ? segmented.segments : 0) * BigInt(rates[operator])}
                currency={currency}
                fourDecimals
                className="block font-medium text-slate-900"
              />
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
