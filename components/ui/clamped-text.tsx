"use client";

import { useEffect, useId, useRef, useState } from "react";
import { cn } from "./cn";

/**
 * Text kept to two lines, with a button under it that shows the whole of it (and keeps it short
 * again) when it does not fit: readable by keyboard and touch, not only by hovering. `text` is what
 * may change length, measured again when it does.
 */
export function ClampedText({
  text,
  children,
  className,
  showLabel = "Show all",
  testId,
}: {
  text: string;
  children: React.ReactNode;
  className?: string;
  showLabel?: string;
  testId?: string;
}) {
  const id = useId();
  const textRef = useRef<HTMLParagraphElement>(null);
  const [expanded, setExpanded] = useState(false);
  const [clipped, setClipped] = useState(false);

  useEffect(() => {
    const element = textRef.current;
    if (!element || expanded) return;
    const measure = () => setClipped(element.scrollHeight > element.clientHeight + 1);
    measure();
    // The width, and so the number of lines, changes with the window and the table around it.
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, text]);

  return (
    <>
      <p id={id} ref={textRef} className={cn(className, !expanded && "line-clamp-2")} data-testid={testId}>
        {children}
      </p>
      {(clipped || expanded) && (
        <button
          type="button"
          className="text-xs font-medium text-brand-700 hover:underline focus-visible:underline"
          aria-expanded={expanded}
          aria-controls={id}
          onClick={() => setExpanded(!expanded)}
        >
          {expanded ? "Show less" : showLabel}
        </button>
      )}
    </>
  );
}
