// The browser side of the dashboard routes: JSON or a thrown Error carrying the route's message.
import type { DashboardErrorBody } from "./dashboard-route";

export async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error((body as DashboardErrorBody | null)?.error ?? `The server answered ${response.status}`);
  return body as T;
}
