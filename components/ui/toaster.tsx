"use client";

import { createContext, useCallback, useContext, useState } from "react";
import { cn } from "./cn";

type Toast = { id: number; tone: "success" | "error"; text: string };
type Notify = (tone: Toast["tone"], text: string) => void;

const ToastContext = createContext<Notify>(() => undefined);

export function useToast(): Notify {
  return useContext(ToastContext);
}

/** Toasts what an action came to: the success text, or the error it answered with. */
export function notifyOutcome(notify: Notify, result: { ok: true } | { ok: false; error: string }, success: string): void {
  if (result.ok) notify("success", success);
  else notify("error", result.error);
}

const TOAST_MS = 5000;

export function Toaster({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const notify = useCallback<Notify>((tone, text) => {
    const id = Date.now() + Math.random();
    setToasts((current) => [...current.slice(-3), { id, tone, text }]);
    setTimeout(() => setToasts((current) => current.filter((toast) => toast.id !== id)), TOAST_MS);
  }, []);
  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2"
      >
        {toasts.map((toast) => (
          <div
            key={toast.id}
            data-testid="toast"
            className={cn(
              "pointer-events-auto flex items-start gap-3 rounded-lg border bg-white px-4 py-3 text-sm shadow-lg",
              toast.tone === "success" ? "border-emerald-200" : "border-red-200",
            )}
          >
            <span
              aria-hidden
              className={cn("mt-1.5 h-2 w-2 shrink-0 rounded-full", toast.tone === "success" ? "bg-emerald-500" : "bg-red-500")}
            />
            <p className="text-slate-800">{toast.text}</p>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
