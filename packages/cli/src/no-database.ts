import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { AuthOptions } from "@tessera/auth-core";
import { CliError, EXIT } from "./errors.ts";
import type { Io } from "./io.ts";

interface ConfigSeen {
  file: string;
  configured: AuthOptions["database"] | undefined;
  /** The port .data/db/ferretdb.port names where nothing answers: the app's database is stopped. */
  stoppedPort: number | undefined;
}

/**
 * Why no database was found, in the app's terms: a config that names its URI through an environment
 * variable that is not set (init's reads MONGODB_URI) says which variable, not "has no database".
 */
async function whyNoDatabase(io: Io, config: ConfigSeen | undefined): Promise<string> {
  if (!config) return `no MONGODB_URI, and no tessera.config.ts|mjs|js in ${io.cwd} or its parents`;
  if (config.configured && "uri" in config.configured) {
    const source = await readFile(resolve(io.cwd, config.file), "utf8").catch(() => "");
    const variable = /\buri:\s*process\.env\.([A-Za-z_][A-Za-z0-9_]*)/.exec(source)?.[1];
    return variable
      ? `${config.file} reads the database's URI from ${variable}, which is not set`
      : `${config.file} gives the database an empty URI`;
  }
  return `${config.file} has no database, and no MONGODB_URI is set`;
}

export async function noDatabase(io: Io, config: ConfigSeen | undefined): Promise<CliError> {
  const why = `no database configured (${await whyNoDatabase(io, config)}).`;
  const opening =
    config?.stoppedPort === undefined
      ? [`${why} One of:`]
      : [
          why,
          `The app's embedded database is not running (nothing answers on port ${config.stoppedPort}, which .data/db/ferretdb.port names): start it with \`npm run dev\` in the app. Or one of:`,
        ];
  return new CliError(
    "NO_DATABASE",
    [
      ...opening,
      "  MONGODB_URI=mongodb://host:27017 TESSERA_DB_NAME=app tessera …   (or --uri and --db)",
      "  a tessera.config.ts with database: { uri, dbName }                (or --config / TESSERA_CONFIG)",
      "  tessera db start                                                  (in another terminal, here)",
      "  npm run dev in the app                                            (its embedded database in .data/db)",
    ].join("\n"),
    EXIT.usage,
  );
}
