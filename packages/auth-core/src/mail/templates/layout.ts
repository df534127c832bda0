import { escapeHtml } from "../escape-html.ts";
import type { MailBlock, MailContent, RenderedMail } from "./types.ts";

/**
 * Renders template content as a plain-text part and a minimal inline-styled HTML part (mail clients
 * ignore <style> blocks inconsistently). Throws when a link is not http(s): escaping keeps a URL inside
 * its attribute but would let a `javascript:` link through, and our links always point at the app.
 */
export function renderMailContent(content: MailContent, htmlLang: string): RenderedMail {
  // No template puts user-chosen text in a subject (docs/security.md, "Mail flooding"; checked by
  // mail/subjects.test.ts); line breaks are flattened anyway, as a header must never break.
  const subject = content.subject.replace(/\s*[\r\n]+\s*/g, " ").trim();
  for (const block of content.blocks) {
    if (block.type === "link") assertHttpUrl(block.url);
  }
  return {
    subject,
    text: `${content.blocks.map(renderTextBlock).join("\n\n")}\n`,
    html: renderHtmlDocument(subject, content.blocks, htmlLang),
  };
}

function renderTextBlock(block: MailBlock): string {
  switch (block.type) {
    case "paragraph":
      return block.text;
    case "link":
      return block.url;
    case "code":
      return block.code;
  }
}

function renderHtmlBlock(block: MailBlock): string {
  switch (block.type) {
    case "paragraph":
      return `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`;
    case "link": {
      const url = escapeHtml(block.url);
      // The bare address follows the button for clients that strip links or show no HTML styling.
      return (
        `<p style="margin:0 0 16px"><a href="${url}" style="display:inline-block;padding:10px 18px;` +
        `background:#1a1a1a;color:#ffffff;text-decoration:none;border-radius:6px">${escapeHtml(block.label)}</a></p>\n` +
        `<p style="margin:0 0 16px;font-size:13px;color:#555555;word-break:break-all">${url}</p>`
      );
    }
    case "code":
      return (
        `<p style="margin:0 0 16px;font-family:monospace;font-size:28px;letter-spacing:6px">` +
        `<strong>${escapeHtml(block.code)}</strong></p>`
      );
  }
}

function renderHtmlDocument(subject: string, blocks: MailBlock[], htmlLang: string): string {
  return [
    "<!doctype html>",
    `<html lang="${escapeHtml(htmlLang)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#ffffff;color:#1a1a1a;' +
      'font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto">',
    ...blocks.map(renderHtmlBlock),
    "</div>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function assertHttpUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error("Mail link is not a valid absolute URL; check the baseURL option");
  }
  if (protocol !== "https:" && protocol !== "http:") {
    throw new Error("Mail link must use http or https; check the baseURL option");
  }
}
