"use client";

import { useRef } from "react";
import { cn } from "./cn";

/**
 * A WAI-ARIA tab list: the selected tab is the one Tab stop (roving tabindex); Left and Right move to
 * and select the previous and next tab (wrapping), Home and End the first and last.
 */
export function TabList<T extends string>({
  label,
  tabs,
  selected,
  onSelect,
}: {
  label: string;
  tabs: readonly { value: T; label: React.ReactNode }[];
  selected: T;
  onSelect: (value: T) => void;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(event: React.KeyboardEvent, index: number) {
    const last = tabs.length - 1;
    const next = { ArrowLeft: index === 0 ? last : index - 1, ArrowRight: index === last ? 0 : index + 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSelect(tabs[next].value);
    buttons.current[next]?.focus();
  }
  return (
    <div role="tablist" aria-label={label} className="inline-flex rounded-lg border border-slate-200 bg-white p-1 shadow-xs">
      {tabs.map((tab, index) => (
        <button
          key={tab.value}
          ref={(button) => {
            buttons.current[index] = button;
          }}
          role="tab"
          type="button"
          aria-selected={tab.value === selected}
          tabIndex={tab.value === selected ? 0 : -1}
          onClick={() => onSelect(tab.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
          className={cn(
            "rounded-md px-4 py-1.5 text-sm font-medium",
            tab.value === selected ? "bg-slate-900 text-white" : "text-slate-600 hover:text-slate-900",
          )}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
