"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useToast } from "@/components/ui/toaster";
import { cn } from "@/components/ui/cn";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import type { ViewMode } from "@/lib/dashboard/view-mode";
import { switchViewModeAction } from "./view-mode-actions";

/** The test data toggle: on shows test keys and what they sent, off the live data. */
export function ViewModeSwitch({ mode, className }: { mode: ViewMode; className?: string }) {
  const router = useRouter();
  const notify = useToast();
  const [busy, startTransition] = useTransition();
  const test = mode === "test";
  function toggle() {
    startTransition(async () => {
      const result = await switchViewModeAction({ mode: test ? "live" : "test" });
      if (!result.ok) notify("error", result.error);
      router.refresh();
    });
  }
  return (
    <button
      type="button"
      role="switch"
      aria-checked={test}
      disabled={busy}
      onClick={toggle}
      data-testid="view-mode-switch"
      className={cn("flex items-center gap-2 rounded-md py-1 text-sm font-medium text-slate-700 hover:text-slate-900", className)}
    >
      <span aria-hidden className={cn("relative h-5 w-9 shrink-0 rounded-full transition-colors", test ? "bg-amber-500" : "bg-slate-300")}>
        <span
          className={cn("absolute top-0.5 left-0.5 h-4 w-4 rounded-full bg-white shadow transition-transform", test && "translate-x-4")}
        />
      </span>
      Test data
    </button>
  );
}

/** Shown above every page while the test data is on. */
export function TestDataBanner() {
  return (
    <div
      role="status"
      data-testid="test-data-banner"
      className="mb-6 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <p className="min-w-0 flex-1">
        <strong className="font-semibold">Test data.</strong> You are viewing test keys and the messages they sent: simulated, never sent to
        a carrier, never charged.
      </p>
      <ViewModeSwitch mode="test" className="text-amber-900" />
    </div>
  );
}

/** A page whose subject belongs to the other view (a test message opened in the live view): says so, with the switch. */
export function InOtherView({ title, what, mode }: { title: string; what: string; mode: ViewMode }) {
  const other = mode === "test" ? "live" : "test";
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState
          icon="search"
          title={`This ${what} is in the ${other} data`}
          description={`It was sent with a ${other} key, so the ${mode} view does not show it. Switch the test data ${other === "test" ? "on" : "off"} to open it.`}
          action={<ViewModeSwitch mode={mode} className="mx-auto" />}
        />
      </Card>
    </>
  );
}
