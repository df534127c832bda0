import { describe, expect, it } from "vitest";
import { applyFilePatch, parseUnifiedPatch } from "./unified-patch.ts";

const SOURCE = ["package p", "", "func a() {", "\treturn", "}", "", "func b() {", "\treturn", "}", ""].join(
  "\n",
);

const PATCH = `Why: a and b say hello.

--- a/p/p.go
+++ b/p/p.go
@@ -2,4 +2,6 @@
 
 func a() {
+\tprintln("a")
+\tprintln("hello")
 \treturn
 }
@@ -7,3 +9,4 @@
 func b() {
+\tprintln("b")
 \treturn
 }
`;

describe("unified patches (go/patches)", () => {
  it("apply each hunk at the line it names, shifted by what the hunks before it added", () => {
    const [filePatch, ...rest] = parseUnifiedPatch(PATCH, "0001-hello.patch");
    expect(rest).toEqual([]);
    expect(filePatch!.file).toBe("p/p.go");
    expect(applyFilePatch(SOURCE, filePatch!, "0001-hello.patch")).toBe(
      SOURCE.replace(
        "{\n\treturn\n}\n\nfunc b() {",
        '{\n\tprintln("a")\n\tprintln("hello")\n\treturn\n}\n\nfunc b() {',
      ).replace("func b() {\n", 'func b() {\n\tprintln("b")\n'),
    );
  });

  it("refuse a source whose lines are not where a hunk says, naming the file and line", () => {
    const [filePatch] = parseUnifiedPatch(PATCH, "0001-hello.patch");
    const moved = `// a comment that moves every line\n${SOURCE}`;
    expect(() => applyFilePatch(moved, filePatch!, "cannot patch FerretDB: 0001-hello.patch")).toThrow(
      "cannot patch FerretDB: 0001-hello.patch does not apply to p/p.go at line 2: the source is not the one it was made for",
    );
    const changed = SOURCE.replace("func b() {", "func b(x int) {");
    expect(() => applyFilePatch(changed, filePatch!, "0001-hello.patch")).toThrow("at line 7");
  });

  it("refuse what is not a change to an existing file", () => {
    expect(() => parseUnifiedPatch("only words\n", "0002.patch")).toThrow("0002.patch: no file in the patch");
    const created = "--- /dev/null\n+++ b/p/new.go\n@@ -0,0 +1 @@\n+package p\n";
    expect(() => parseUnifiedPatch(created, "0003.patch")).toThrow('expected "--- a/<file>"');
    const short = "--- a/p/p.go\n+++ b/p/p.go\n@@ -1,3 +1,3 @@\n package p\n";
    expect(() => parseUnifiedPatch(short, "0004.patch")).toThrow("cut short");
    const noNewline =
      "--- a/p/p.go\n+++ b/p/p.go\n@@ -1 +1 @@\n-package p\n\\ No newline at end of file\n+package q\n";
    expect(() => parseUnifiedPatch(noNewline, "0005.patch")).toThrow("unexpected line");
  });
});
