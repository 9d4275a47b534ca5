import { buttonClass } from "./button";

/**
 * Every filter form of the dashboard: a GET form, so the URL holds the state and a filtered view can
 * be linked and reloaded. A refused value is named in `problems` above the fields.
 */
export function FilterForm({
  children,
  resetHref,
  submitLabel = "Apply",
  problems = [],
  narrow = false,
}: {
  children: React.ReactNode;
  resetHref?: string;
  submitLabel?: string;
  problems?: string[];
  /** In a side column: the fields and buttons one above the other, not four abreast. */
  narrow?: boolean;
}) {
  return (
    <form method="get" className="border-b border-slate-100 px-5 py-4" role="search">
      {problems.length > 0 && (
        <ul data-testid="filter-problems" className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {problems.map((problem) => (
            <li key={problem} className="wrap-anywhere">
              {problem}
            </li>
          ))}
        </ul>
      )}
      <div className={narrow ? "grid gap-3" : "grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"}>
        {children}
        <div className="flex gap-2">
          <button type="submit" className={buttonClass("secondary")}>
            {submitLabel}
          </button>
          {resetHref && (
            <a href={resetHref} className={buttonClass("ghost")}>
              Reset
            </a>
          )}
        </div>
      </div>
    </form>
  );
}

/** The href of the same view with some params replaced (undefined removes one). */
export function withParams(path: string, params: Record<string, string | undefined>, changes: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, ...changes })) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
