"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies text to the clipboard; falls back to selecting it where the clipboard API is unavailable (plain http). */
export function CopyButton({
  text,
  label = "Copy",
  targetId,
  onCopied,
  autoFocus = false,
}: {
  text: string;
  label?: string;
  targetId?: string;
  onCopied?: () => void;
  /** Focused when its dialog opens. */
  autoFocus?: boolean;
}) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      const target = targetId ? document.getElementById(targetId) : null;
      if (target instanceof HTMLInputElement) target.select();
      document.execCommand("copy");
    }
    setCopied(true);
    onCopied?.();
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <Button variant="secondary" onClick={copy} aria-live="polite" data-autofocus={autoFocus || undefined} data-testid="copy-button">
      {copied ? "Copied" : label}
    </Button>
  );
}
