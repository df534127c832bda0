import { AuthError, ERROR_CATALOGUE, type ErrorCode } from "@tessera/auth-core";
import { describe, expect, it } from "vitest";
import { readSpecCatalogue } from "./spec-catalogue.ts";

/**
 * The catalogue against SPEC §8 (read from SPEC.md at test time, so a message SPEC adds fails here
 * until the catalogue has it): every message verbatim, with the status SPEC gives.
 */
const entries = Object.entries(ERROR_CATALOGUE) as [ErrorCode, { status: number; message: string }][];
const spec = readSpecCatalogue();

describe("SPEC §8 parsing (guards the test itself)", () => {
  it("finds every group of §8 and a plausible number of messages", () => {
    expect([...new Set(spec.map((m) => m.section))]).toEqual([
      "Session and general",
      "Verify-email token errors",
      "Social sign-in",
      "Email sign-in",
      "Passwords",
      "Deletion and email change",
      "Accounts",
      "Organizations",
      "API keys",
      "Access control",
    ]);
    expect(spec).toHaveLength(86);
    expect(spec).toContainEqual({
      section: "Session and general",
      message: "Invalid origin",
      statuses: [403],
    });
    expect(spec).toContainEqual({
      section: "Social sign-in",
      message: "invalid token",
      statuses: [401, 404],
    });
    expect(spec).toContainEqual({
      section: "Verify-email token errors",
      message: "token_expired",
      statuses: [401],
    });
    expect(spec).toContainEqual({
      section: "Deletion and email change",
      message: "Not found",
      statuses: undefined,
    });
    expect(spec).toContainEqual({
      section: "Email sign-in",
      message: "Invalid email or password",
      statuses: undefined,
    });
  });
});

describe("every SPEC §8 message is in the catalogue", () => {
  it.each(spec.map((m) => [m.section, m.message, m.statuses] as const))(
    "%s: %j (status %j)",
    (_section, message, statuses) => {
      const withMessage = entries.filter(([, entry]) => entry.message === message);
      expect(
        withMessage.map(([code]) => code),
        `no catalogue entry says "${message}"`,
      ).not.toEqual([]);
      if (statuses) {
        const matching = withMessage.filter(([, entry]) => statuses.includes(entry.status));
        expect(
          matching.map(([code]) => code),
          `"${message}" must have status ${statuses.join("/")}`,
        ).not.toEqual([]);
      }
    },
  );
});

describe("catalogue shape", () => {
  it.each(entries.map(([code, entry]) => [code, entry.status, entry.message] as const))(
    "%s (%i) %j is UPPER_SNAKE, an error status and a clean message",
    (code, status, message) => {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(Number.isInteger(status)).toBe(true);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThanOrEqual(599);
      expect(message.length).toBeGreaterThan(0);
      expect(message).toBe(message.trim());
    },
  );

  it("gives each AuthError the catalogue's status and message, serialised as { code, message }", () => {
    for (const [code, entry] of entries) {
      const error = new AuthError(code);
      expect(error.status).toBe(entry.status);
      expect(error.toJSON()).toEqual({ code, message: entry.message });
    }
  });

  it("has the password codes outside SPEC of the security-hardening issue", () => {
    expect(ERROR_CATALOGUE.PASSWORD_COMPROMISED).toEqual({
      status: 400,
      message: "Password is too common or has appeared in a data breach; choose another",
    });
    expect(ERROR_CATALOGUE.SIGN_IN_LOCKED).toEqual({
      status: 403,
      message: "Too many failed sign-in attempts. Reset your password to sign in.",
    });
    // The delays before the lock reuse the two-factor lock's 429.
    expect(ERROR_CATALOGUE.ACCOUNT_TEMPORARILY_LOCKED.status).toBe(429);
  });

  it("uses one message per status for the hygiene codes outside SPEC (no accidental reuse)", () => {
    const hygiene: ErrorCode[] = [
      "NOT_FOUND",
      "METHOD_NOT_ALLOWED",
      "BODY_TOO_LARGE",
      "INVALID_JSON",
      "UNSUPPORTED_CONTENT_TYPE",
      "VALIDATION_ERROR",
      "TOO_MANY_REQUESTS",
      "SERVICE_UNAVAILABLE",
      "INTERNAL_SERVER_ERROR",
    ];
    expect(hygiene.map((code) => [code, ERROR_CATALOGUE[code].status])).toEqual([
      ["NOT_FOUND", 404],
      ["METHOD_NOT_ALLOWED", 405],
      ["BODY_TOO_LARGE", 413],
      ["INVALID_JSON", 400],
      ["UNSUPPORTED_CONTENT_TYPE", 400],
      ["VALIDATION_ERROR", 400],
      ["TOO_MANY_REQUESTS", 429],
      ["SERVICE_UNAVAILABLE", 503],
      ["INTERNAL_SERVER_ERROR", 500],
    ]);
  });
});
