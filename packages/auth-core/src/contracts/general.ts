import { z } from "zod";
import { defineContract } from "./contract.ts";

export const okContract = defineContract({
  name: "ok",
  method: "GET",
  path: "/ok",
  auth: "none",
  response: z.strictObject({ ok: z.literal(true) }),
  errors: [],
  summary: "Answers { ok: true } while the service is up.",
  client: false,
  tags: ["general"],
});

export const errorContract = defineContract({
  name: "error",
  method: "GET",
  path: "/error",
  auth: "none",
  // Lenient on purpose: this page must render for whatever a provider or a link puts in the query.
  query: z.object({ error: z.unknown().optional() }).passthrough(),
  response: z.string(),
  answers: "html",
  errors: [],
  summary: "An HTML page showing an error code from the query and a link back to the app.",
  client: false,
  notes: "HTML page naming `?error=` (or Unknown).",
  tags: ["general"],
});
