"use client";

import { useEffect, useRef } from "react";
import { cn } from "./cn";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the last focusable element goes to the first, Shift+Tab from the first to the last: a modal
 * <dialog> keeps the page inert but lets Tab leave it for the browser's own controls (the document
 * body, in a headless browser) before cycling back.
 */
function keepFocusInside(event: React.KeyboardEvent, dialog: HTMLDialogElement) {
  const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
  if (focusable.length === 0) return;
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  const target = event.shiftKey ? (document.activeElement === first ? last : null) : document.activeElement === last ? first : null;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

/**
 * A modal on the native <dialog> (Escape and an inert background for free, Tab kept inside by keepFocusInside). onRequestClose
 * runs on Escape, a backdrop click or a close button; the owner decides whether to close (a dialog
 * showing a secret asks first). Opening focuses the element marked data-autofocus (the field to
 * type in, the button to press), else the first focusable one.
 */
export function Dialog({
  open,
  onRequestClose,
  title,
  description,
  children,
  footer,
  size = "md",
  testId,
}: {
  open: boolean;
  onRequestClose: () => void;
  title: string;
  description?: React.ReactNode;
  children?: React.ReactNode;
  footer?: React.ReactNode;
  size?: "md" | "lg";
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      data-testid={testId}
      aria-labelledby={testId ? `${testId}-title` : undefined}
      onKeyDown={(event) => {
        if (event.key === "Tab") keepFocusInside(event, event.currentTarget);
      }}
      onCancel={(event) => {
        event.preventDefault();
        onRequestClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onRequestClose();
      }}
      className={cn(
        "m-auto w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/40 backdrop:backdrop-blur-[1px]",
        size === "lg" ? "max-w-2xl" : "max-w-lg",
      )}
    >
      {open && (
        <div>
          <div className="flex items-start justify-between gap-4 px-6 pt-5">
            <div className="min-w-0">
              <h2 id={testId ? `${testId}-title` : undefined} className="text-base font-semibold wrap-anywhere">
                {title}
              </h2>
              {description && <div className="mt-1 text-sm text-slate-500">{description}</div>}
            </div>
            <button
              type="button"
              aria-label="Close"
              onClick={onRequestClose}
              className="-mr-2 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
            >
              <svg viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4" aria-hidden>
                <path d="M6.28 5.22a.75.75 0 0 0-1.06 1.06L8.94 10l-3.72 3.72a.75.75 0 1 0 1.06 1.06L10 11.06l3.72 3.72a.75.75 0 1 0 1.06-1.06L11.06 10l3.72-3.72a.75.75 0 0 0-1.06-1.06L10 8.94 6.28 5.22Z" />
              </svg>
            </button>
          </div>
          {children && <div className="px-6 py-4">{children}</div>}
          {footer && (
            <div className="flex flex-wrap justify-end gap-2 rounded-b-xl border-t border-slate-100 bg-slate-50 px-6 py-3">{footer}</div>
          )}
        </div>
      )}
    </dialog>
  );
}
