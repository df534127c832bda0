/** The CLI's version (kept equal to package.json's by tests/cli). */
export const VERSION = "0.1.0";
