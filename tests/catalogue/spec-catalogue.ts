import { readFileSync } from "node:fs";

/** One error message SPEC §8 requires, with the status(es) SPEC allows for it when it gives any. */
export interface SpecMessage {
  section: string;
  message: string;
  /** Statuses SPEC allows; undefined when SPEC gives none. */
  statuses: number[] | undefined;
}

const SPEC_PATH = "/work/shared/spec/SPEC.md";

/**
 * Bullets of §8 that describe behaviour rather than name an error message. Everything else is read
 * as a message, so a new message in SPEC fails the catalogue test until the catalogue has it.
 */
const DESCRIPTIVE_BULLETS = [
  /^Callback redirect error codes:/, // redirect `error` values of the social callback, not JSON errors
  /^Provider error and description are passed through\.$/,
  /^Reset request always answers ".*" for unknown emails\.$/, // a success message
];

/** Bullets whose wording wraps the message in a condition. */
const REWORDED: Record<string, string> = {
  "Not found if deletion is disabled": "Not found",
};

/** Statements in a paragraph after the list, e.g. "…, or as 401 when there is no callback." */
function paragraphStatuses(text: string): number[] | undefined {
  const match = /\bas (\d{3}) when\b/.exec(text);
  return match ? [Number(match[1])] : undefined;
}

function splitStatus(text: string): { text: string; statuses: number[] | undefined } {
  const match = /^(.*?)\s*\((\d{3}(?:\/\d{3})*)\)$/.exec(text);
  if (match) return { text: match[1]!, statuses: match[2]!.split("/").map(Number) };
  // A non-status parenthetical is a comment: "Session expired (stale session)".
  return { text: text.replace(/\s*\([^)]*\)$/, ""), statuses: undefined };
}

/** "Invalid callbackURL / redirectURL / origin" → "Invalid callbackURL", "Invalid redirectURL", … */
function expandAlternatives(text: string): string[] {
  if (!text.includes(" / ")) return [text];
  const [first, ...rest] = text.split(" / ");
  const words = first!.split(" ");
  const prefix = words.slice(0, -1).join(" ");
  return [first!, ...rest.map((alternative) => `${prefix} ${alternative}`)];
}

/** Reads SPEC §8 into messages; throws when the section cannot be found. */
export function readSpecCatalogue(markdown = readFileSync(SPEC_PATH, "utf8")): SpecMessage[] {
  const start = markdown.indexOf("## 8. Error catalogue");
  const end = markdown.indexOf("## 9.", start);
  if (start === -1 || end === -1) throw new Error("SPEC.md has no §8 Error catalogue");
  const messages: SpecMessage[] = [];
  let section = "";
  for (const rawLine of markdown.slice(start, end).split("\n")) {
    const line = rawLine.trim();
    const heading = /^\*\*(.+?)\*\*(?::\s*(.*))?$/.exec(line);
    if (heading) {
      section = heading[1]!;
      if (heading[2] === undefined) continue;
      // Inline list: "**API keys**: not found, disabled, … ." plus an optional sentence after it.
      const [list, ...after] = heading[2].split(/\.\s+/);
      const statuses = paragraphStatuses(after.join(". "));
      for (const item of list!.replace(/\.$/, "").split(",")) {
        messages.push({ section, message: item.trim(), statuses });
      }
      continue;
    }
    if (!line.startsWith("- ")) continue;
    const bullet = line.slice(2).trim();
    if (DESCRIPTIVE_BULLETS.some((pattern) => pattern.test(bullet))) continue;
    const groupStatus = /^\((\d{3}(?:\/\d{3})*)\)$/.exec(bullet);
    if (groupStatus) {
      // "(401/404)" under a group: the statuses of its messages that name none.
      const statuses = groupStatus[1]!.split("/").map(Number);
      for (const message of messages) {
        if (message.section === section && message.statuses === undefined) message.statuses = statuses;
      }
      continue;
    }
    const { text, statuses } = splitStatus(REWORDED[bullet] ?? bullet);
    for (const message of expandAlternatives(text)) messages.push({ section, message, statuses });
  }
  return messages;
}
