// Test and live data apart, as in Stripe's dashboard: an account user views either the live data
// (live keys, their messages and bulk sends) or the test data (test keys and what they sent), never
// both at once. The choice is a cookie, so reloads and every route the pages call keep it.
import { cookies } from "next/headers";

export type ViewMode = "live" | "test";

export const VIEW_MODE_COOKIE = "tumira_view";

function viewModeOf(value: string | undefined): ViewMode {
  return value === "test" ? "test" : "live";
}

/** The signed-in user's view: live unless they switched to test data. */
export async function getViewMode(): Promise<ViewMode> {
  return viewModeOf((await cookies()).get(VIEW_MODE_COOKIE)?.value);
}

export async function setViewMode(mode: ViewMode): Promise<void> {
  (await cookies()).set(VIEW_MODE_COOKIE, mode, { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 86_400 });
}

/** Whether a row's test flag belongs in this view. */
export function isTestView(mode: ViewMode): boolean {
  return mode === "test";
}
