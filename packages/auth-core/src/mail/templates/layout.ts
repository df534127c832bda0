import { escapeHtml } from "../escape-html.ts";
import type { MailBlock, MailContent, RenderedMail } from "./types.ts";

/**
 * Renders template content as a plain-text part and an HTML part laid out with tables and inline
 * styles, the subset Outlook's Word engine renders (docs/decisions/0016-languages.md, "Mail layout").
 * Throws when a link is not http(s): escaping keeps a URL inside its attribute but would let a
 * `javascript:` link through, and our links always point at the app.
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
    case "greeting":
    case "paragraph":
      return block.text;
    case "link":
      return block.url;
    case "code":
      return block.code;
  }
}

// Longhand properties only: the Word engine drops shorthands such as `background` and `font`, and
// some webmail dropped `margin`; spacing is padding on cells, which every client keeps.
const FONT = "font-family:'Segoe UI',Helvetica,Arial,sans-serif";
const TEXT = `${FONT};font-size:16px;line-height:24px;color:#1a1a1a`;
const BUTTON_COLOR = "#1a1a1a";
const TABLE_ATTRIBUTES = 'role="presentation" cellpadding="0" cellspacing="0" border="0"';

/** One row of the content table per block, its spacing as bottom padding on the cell. */
function renderHtmlBlock(block: MailBlock): string {
  switch (block.type) {
    case "greeting":
    case "paragraph":
      return row(`style="${TEXT};padding-bottom:16px"`, escapeHtml(block.text));
    case "link": {
      const url = escapeHtml(block.url);
      // A "bulletproof" button: the colour and padding sit on the cell, which Outlook paints, as it
      // ignores padding and inline-block on links. The bare address follows for clients that strip
      // links or show no styling, and for readers who check where a link goes before following it.
      const button =
        `<table ${TABLE_ATTRIBUTES}><tr><td align="center" bgcolor="${BUTTON_COLOR}" ` +
        `style="background-color:${BUTTON_COLOR};border-radius:6px;padding-top:12px;padding-right:20px;` +
        `padding-bottom:12px;padding-left:20px"><a href="${url}" target="_blank" ` +
        `style="${FONT};font-size:16px;line-height:20px;font-weight:bold;color:#ffffff;text-decoration:none">` +
        `${escapeHtml(block.label)}</a></td></tr></table>`;
      return [
        row('style="padding-bottom:12px"', button),
        row(
          `style="${FONT};font-size:13px;line-height:18px;color:#555555;word-break:break-all;padding-bottom:16px"`,
          url,
        ),
      ].join("\n");
    }
    case "code":
      return row(
        `style="font-family:Consolas,'Courier New',monospace;font-size:28px;line-height:36px;` +
          `letter-spacing:6px;color:#1a1a1a;padding-bottom:16px"`,
        `<strong>${escapeHtml(block.code)}</strong>`,
      );
  }
}

function row(cellAttributes: string, content: string): string {
  return `<tr><td ${cellAttributes}>${content}</td></tr>`;
}

/**
 * The inbox preview: the first paragraph after the salutation, hidden in the body (`mso-hide` for
 * Outlook). Without it clients preview "Hi," and the button label.
 */
function renderPreheader(blocks: MailBlock[]): string {
  const first = blocks.find((block) => block.type === "paragraph");
  if (first?.type !== "paragraph") return "";
  return (
    '<span style="display:none;visibility:hidden;mso-hide:all;font-size:1px;line-height:1px;' +
    `max-height:0;max-width:0;opacity:0;overflow:hidden;color:#ffffff">${escapeHtml(first.text)}</span>`
  );
}

function renderHtmlDocument(subject: string, blocks: MailBlock[], htmlLang: string): string {
  return [
    "<!doctype html>",
    `<html lang="${escapeHtml(htmlLang)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="x-apple-disable-message-reformatting">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body bgcolor="#ffffff" style="margin-top:0;margin-right:0;margin-bottom:0;margin-left:0;' +
      'padding-top:0;padding-right:0;padding-bottom:0;padding-left:0;background-color:#ffffff">',
    renderPreheader(blocks),
    // The outer table fills the window and centres; the inner one is 100% wide up to 600 px. Outlook
    // ignores max-width, so a table only it reads (conditional comment) fixes the width at 600.
    `<table ${TABLE_ATTRIBUTES} width="100%" bgcolor="#ffffff" style="background-color:#ffffff">`,
    '<tr><td align="center" style="padding-top:24px;padding-right:16px;padding-bottom:24px;padding-left:16px">',
    `<!--[if mso]><table ${TABLE_ATTRIBUTES} width="600" align="center"><tr><td><![endif]-->`,
    `<table ${TABLE_ATTRIBUTES} width="100%" style="width:100%;max-width:600px">`,
    ...blocks.map(renderHtmlBlock),
    "</table>",
    "<!--[if mso]></td></tr></table><![endif]-->",
    "</td></tr>",
    "</table>",
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
