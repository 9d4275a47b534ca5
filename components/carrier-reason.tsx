import { explainCarrierCode } from "@/lib/messages/vocabulary";

/** A carrier's answer or an error: plain words first, the raw code beside them to search for. */
export function CarrierReason({ text, testId, className }: { text: string | null | undefined; testId?: string; className?: string }) {
  if (!text) return <span className="text-slate-400">—</span>;
  const plain = explainCarrierCode(text);
  return (
    <span className={className} data-testid={testId}>
      {plain && <span data-testid={testId ? `${testId}-plain` : undefined}>{plain} </span>}
      <code className="font-mono text-xs break-all text-slate-500" title="The code as the carrier or the gateway gave it">
        {plain ? `(${text})` : text}
      </code>
    </span>
  );
}
