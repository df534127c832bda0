/** Text that JSON.stringify escapes, and text it leaves alone that a hand-written JSON writer might not. */
export const AWKWARD_TEXTS = [
  'Zoë "Z" O\'Neil',
  "back\\slash\ttab\nline",
  "\u2028\u2029 \u0000\u001f",
  "😀 \ud800 lone",
  "",
] as const;
