import { useEffect, useState } from "react";
import { useT } from "~/lib/i18n";

/**
 * Copies `text` to the clipboard, then says so. The Clipboard API exists only in secure contexts
 * (https, localhost); elsewhere — the demo opened over a LAN address — a hidden textarea is selected
 * and copied the old way. Rendered only once the page is hydrated: without JavaScript it could do
 * nothing, and the text stays on the page to select by hand.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useT();
  const [isHydrated, setHydrated] = useState(false);
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  useEffect(() => setHydrated(true), []);
  if (!isHydrated) return null;
  const copy = async () => {
    setOutcome((await copyText(text)) ? "copied" : "failed");
  };
  return (
    <span className="copy">
      <button type="button" className="button button-small button-secondary" onClick={copy}>
        {label}
      </button>{" "}
      <span aria-live="polite">
        {outcome === "copied" ? t("common.copied") : outcome === "failed" ? t("common.copyFailed") : ""}
      </span>
    </span>
  );
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, document not focused): try the old way.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.className = "visually-hidden";
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
  }
}
