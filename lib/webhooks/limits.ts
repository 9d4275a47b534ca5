// Sizes the dashboard's browser code shares with the server: no imports, so it bundles alone.

/** Webhook endpoints an account may hold: the Webhooks page shows the cap instead of its form there. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
