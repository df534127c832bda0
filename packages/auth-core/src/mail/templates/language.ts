// The enumeration lives in i18n/ (browser-safe, shared with the contracts); mail code imports it here.
export type { Language } from "../../i18n/languages.ts";
