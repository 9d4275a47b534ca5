// Sizes the dashboard's browser code shares with the server: no imports, so it bundles alone.

/** Numbers per import call: the dashboard sends a CSV in chunks of this many and shows its progress. */
export const OPT_OUT_IMPORT_CHUNK = 500;

/** Characters of one import value the server reads: more is no phone number, and the browser sends only these. */
export const OPT_OUT_IMPORT_VALUE_MAX = 64;
