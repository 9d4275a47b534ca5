"use client";

import { useState } from "react";
import { Button } from "./button";

/** Copies text to the clipboard; falls back to selecting it where the clipboard API is unavailable (plain http). */
export function CopyButton({ text, label = "Copy", targetId }: { text: string; label?: string; targetId?: string }) {
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
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <Button variant="secondary" onClick={copy} aria-live="polite">
      {copied ? "Copied" : label}
    </Button>
  );
}
