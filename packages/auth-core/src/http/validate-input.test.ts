import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AuthError } from "../errors/auth-error.ts";
import { MAX_INPUT_DEPTH, validateInput } from "./validate-input.ts";

const schema = z.strictObject({ email: z.string().max(10).pipe(z.email()), name: z.string().optional() });

function failure(input: unknown): AuthError {
  try {
    validateInput(schema, input, { email: "INVALID_EMAIL" });
  } catch (error) {
    if (error instanceof AuthError) return error;
  }
  throw new Error("expected an AuthError");
}

describe("validateInput", () => {
  it("returns the parsed data, and {} without a schema", () => {
    expect(validateInput(schema, { email: "a@b.io" }, undefined)).toEqual({ email: "a@b.io" });
    expect(validateInput(undefined, { anything: 1 }, undefined)).toEqual({});
  });

  it("maps a well-typed value that breaks a field rule to the field's catalogue error", () => {
    expect(failure({ email: "nope" }).code).toBe("INVALID_EMAIL");
    expect(failure({ email: "a-very-long@b.io" }).code).toBe("INVALID_EMAIL");
  });

  it("answers VALIDATION_ERROR for a wrong type (operator objects), even on a mapped field", () => {
    const error = failure({ email: { $ne: null } });
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({
      code: "VALIDATION_ERROR",
      message: "Invalid request",
      issues: [{ path: "email", message: expect.any(String) }],
    });
  });

  it("answers VALIDATION_ERROR for unknown keys and non-objects, never echoing values", () => {
    expect(failure({ email: "a@b.io", role: "admin" }).code).toBe("VALIDATION_ERROR");
    expect(failure([]).code).toBe("VALIDATION_ERROR");
    expect(failure("a@b.io").code).toBe("VALIDATION_ERROR");
    expect(JSON.stringify(failure({ email: { secret: "hunter2" } }).toJSON())).not.toContain("hunter2");
  });

  it("refuses input nested deeper than MAX_INPUT_DEPTH, and a cycle (server-side input), as VALIDATION_ERROR", () => {
    const free = z.strictObject({ metadata: z.json() });
    const nest = (levels: number): unknown => (levels === 0 ? 1 : { a: nest(levels - 1) });
    expect(validateInput(free, { metadata: nest(MAX_INPUT_DEPTH - 1) }, undefined)).toEqual({
      metadata: nest(MAX_INPUT_DEPTH - 1),
    });
    const tooDeep = () => validateInput(free, { metadata: nest(MAX_INPUT_DEPTH) }, undefined);
    expect(tooDeep).toThrow(AuthError);
    expect(() => tooDeep()).toThrow(expect.objectContaining({ code: "VALIDATION_ERROR" }));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => validateInput(free, { metadata: cyclic }, undefined)).toThrow(
      expect.objectContaining({ code: "VALIDATION_ERROR" }),
    );
  });
});
