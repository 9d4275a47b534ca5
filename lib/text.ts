// Free text a client sends (message bodies, sender ids as typed, key names) is stored only if it is
// text: no NUL (PostgreSQL refuses it in text columns) and no half of a surrogate pair (not a
// character: it cannot be encoded to UTF-8, shown on a handset, or stored faithfully).
// eslint-disable-next-line no-control-regex -- NUL is the character refused
const NOT_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const NOT_TEXT_DESCRIPTION = "must not contain NUL characters or unpaired surrogates";

export function isStorableText(text: string): boolean {
  return !NOT_TEXT.test(text);
}
