import { buttonClass } from "./ui/button";

/** A GET form of filters: the URL holds the state, so filtered views can be linked and reloaded. */
export function FilterBar({ children, resetHref }: { children: React.ReactNode; resetHref: string }) {
  return (
    <form method="get" className="grid items-end gap-3 border-b border-slate-100 px-5 py-4 sm:grid-cols-2 lg:grid-cols-4" role="search">
      {children}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("secondary")}>Apply</button>
        <a href={resetHref} className={buttonClass("ghost")}>Reset</a>
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
