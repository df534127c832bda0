import { z } from "zod";
import { parsePatchPath } from "../filter/parse.ts";
import { ScimFilterError } from "../filter/tokenize.ts";
import { ScimError } from "../protocol/scim-error.ts";

/**
 * What a directory may set on a user, from a POST/PUT body or PATCH operations (RFC 7644 §3.3,
 * §3.5.1, §3.5.2), with the variants real clients send: Entra ID's capitalised ops ("Replace") and
 * string booleans ("False"), paths in any case, a PATCH without a path carrying an object.
 */
export interface UserChanges {
  /** As the client sent it (RFC 7643 §4.1.1: unique, compared case-insensitively). */
  userName?: string;
  email?: string;
  displayName?: string;
  /** name.formatted as the directory sent it (the account's name comes from displayName). */
  formatted?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  externalId?: string | null;
  /** null: removed (RFC 7644 §3.5.2.2 unassigned), which Tessera reads as active. */
  active?: boolean | null;
}

const text = z.string().trim().min(1).max(256);
/** "True"/"False" as Entra ID sends them in PATCH values (and some clients in bodies). */
const flag = z.union([
  z.boolean(),
  z.enum(["True", "False", "true", "false"]).transform((v) => v.toLowerCase() === "true"),
]);
const email = z.string().trim().toLowerCase().max(254).pipe(z.email());

const userName = z.string().trim().min(1).max(256);
const userBody = z.looseObject({
  userName,
  externalId: text.nullish(),
  displayName: text.nullish(),
  name: z
    .looseObject({ formatted: text.nullish(), givenName: text.nullish(), familyName: text.nullish() })
    .nullish(),
  emails: z
    .array(z.looseObject({ value: email.optional(), primary: flag.optional() }))
    .max(10)
    .nullish(),
  active: flag.optional(),
});

/**
 * A POST or PUT body: the whole user. Any unique userName is accepted (RFC 7643 §4.1.1); the
 * account's address is the userName when it is one, else the primary (else first) of `emails`
 * (docs/security.md "SCIM").
 */
export function readUserBody(body: unknown): UserChanges & { userName: string; email: string } {
  const parsed = userBody.safeParse(body);
  if (!parsed.success) throw refuseInvalid(parsed.error);
  const user = parsed.data;
  const address = readAddress(user.userName, user.emails ?? []);
  const displayName =
    user.displayName ??
    user.name?.formatted ??
    joinName(user.name?.givenName, user.name?.familyName) ??
    user.userName;
  return {
    userName: user.userName,
    email: address,
    displayName,
    formatted: user.name?.formatted ?? null,
    givenName: user.name?.givenName ?? null,
    familyName: user.name?.familyName ?? null,
    externalId: user.externalId ?? null,
    active: user.active ?? true,
  };
}

function readAddress(name: string, emails: readonly { value?: string; primary?: boolean }[]): string {
  const fromName = email.safeParse(name);
  if (fromName.success) return fromName.data;
  const listed = emails.filter((entry) => entry.value !== undefined);
  const chosen = listed.find((entry) => entry.primary === true) ?? listed[0];
  if (chosen?.value) return chosen.value;
  throw new ScimError(
    400,
    "The user needs an email address: userName is not one and emails lists none",
    "invalidValue",
  );
}

function joinName(given: string | null | undefined, family: string | null | undefined): string | null {
  const joined = [given, family].filter(Boolean).join(" ");
  return joined || null;
}

const PATCH_SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const patchBody = z.looseObject({
  schemas: z.array(z.string()).optional(),
  Operations: z
    .array(
      z.looseObject({ op: z.string(), path: z.string().max(512).optional(), value: z.unknown().optional() }),
    )
    .min(1)
    .max(100),
});

export interface PatchOperation {
  op: "add" | "replace" | "remove";
  path?: string;
  value?: unknown;
}

/** A PatchOp body's operations (RFC 7644 §3.5.2), ops lower-cased (Entra ID sends "Replace"). */
export function readPatchOperations(body: unknown): PatchOperation[] {
  const parsed = patchBody.safeParse(body);
  if (!parsed.success) throw refuseInvalid(parsed.error);
  if (parsed.data.schemas && !parsed.data.schemas.includes(PATCH_SCHEMA))
    throw new ScimError(400, `schemas must include ${PATCH_SCHEMA}`, "invalidSyntax");
  return parsed.data.Operations.map((operation) => {
    const op = operation.op.toLowerCase();
    if (op !== "add" && op !== "replace" && op !== "remove")
      throw new ScimError(400, `Unknown PATCH op '${operation.op}'`, "invalidSyntax");
    return {
      op,
      ...(operation.path !== undefined ? { path: operation.path } : {}),
      value: operation.value,
    };
  });
}

/** PATCH operations in order, folded into the changes they make. */
export function readPatch(body: unknown): UserChanges {
  const changes: UserChanges = {};
  for (const { op, path, value } of readPatchOperations(body)) {
    if (path === undefined) {
      if (op === "remove") throw new ScimError(400, "A remove operation needs a path", "noTarget");
      if (!value || typeof value !== "object" || Array.isArray(value))
        throw new ScimError(400, "An operation without a path needs an object value", "invalidValue");
      for (const [key, inner] of Object.entries(value)) applyPath(changes, key, inner, false);
    } else {
      applyPath(changes, path, value, op === "remove");
    }
  }
  return changes;
}

/** One path's change; `name` and `emails` as whole values too. */
function applyPath(changes: UserChanges, rawPath: string, value: unknown, remove: boolean): void {
  let target: string;
  try {
    const { path, filter, sub } = parsePatchPath(rawPath);
    const schema = path.schema === null || path.schema === "urn:ietf:params:scim:schemas:core:2.0:user";
    if (!schema) throw new ScimError(400, `Unknown attribute '${rawPath}'`, "invalidPath");
    // emails[type eq "work"].value: the one address (any filter names it: there is no other).
    target = filter
      ? `${path.attribute}.${sub ?? ""}`
      : path.sub
        ? `${path.attribute}.${path.sub}`
        : path.attribute;
  } catch (error) {
    if (error instanceof ScimFilterError) throw new ScimError(400, error.message, "invalidPath");
    throw error;
  }
  const set = <K extends keyof UserChanges>(key: K, schema: z.ZodType<UserChanges[K]>, nullable: boolean) => {
    if (remove) {
      if (!nullable) throw new ScimError(400, `'${rawPath}' cannot be removed`, "mutability");
      changes[key] = null as UserChanges[K];
      return;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ScimError(400, `Invalid value for '${rawPath}'`, "invalidValue");
    changes[key] = parsed.data;
  };
  switch (target) {
    case "active":
      set("active", flag, true);
      return;
    case "username": {
      const parsed = remove ? null : userName.safeParse(value);
      if (!parsed?.success) throw new ScimError(400, `Invalid value for '${rawPath}'`, "invalidValue");
      changes.userName = parsed.data;
      // An address as userName is the account's address too (readUserBody's rule).
      const address = email.safeParse(parsed.data);
      if (address.success) changes.email = address.data;
      return;
    }
    case "emails.value":
      set("email", email, false);
      return;
    case "emails":
      set(
        "email",
        z
          .array(z.looseObject({ value: email, primary: flag.optional() }))
          .min(1)
          .transform((list) => (list.find((entry) => entry.primary === true) ?? list[0]!).value),
        false,
      );
      return;
    case "displayname":
      set("displayName", text, false);
      return;
    case "name.formatted":
      set("formatted", text, true);
      return;
    case "name.givenname":
      set("givenName", text, true);
      return;
    case "name.familyname":
      set("familyName", text, true);
      return;
    case "externalid":
      set("externalId", text, true);
      return;
    case "name": {
      if (remove) {
        changes.formatted = null;
        changes.givenName = null;
        changes.familyName = null;
        return;
      }
      const name = z
        .looseObject({ formatted: text.optional(), givenName: text.optional(), familyName: text.optional() })
        .safeParse(value);
      if (!name.success) throw new ScimError(400, `Invalid value for '${rawPath}'`, "invalidValue");
      if (name.data.formatted !== undefined) changes.formatted = name.data.formatted;
      if (name.data.givenName !== undefined) changes.givenName = name.data.givenName;
      if (name.data.familyName !== undefined) changes.familyName = name.data.familyName;
      return;
    }
    default:
      throw new ScimError(400, `Unknown or read-only attribute '${rawPath}'`, "invalidPath");
  }
}

/** A body's first schema issue as 400 invalidValue, naming the attribute. */
export function refuseInvalid(error: z.ZodError): ScimError {
  const issue = error.issues[0];
  const where = issue?.path.join(".") || "body";
  return new ScimError(400, `Invalid ${where}: ${issue?.message ?? "invalid"}`, "invalidValue");
}
