// The built-in opt-out keywords: no imports, so the dashboard's browser code shares them.
export const STOP_KEYWORDS: ReadonlySet<string> = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"]);
export const START_KEYWORDS: ReadonlySet<string> = new Set(["START", "UNSTOP"]);
