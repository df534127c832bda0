export { DEFAULT_PORT, ServerConfigError } from "./env-config.ts";
export { type ConfigOptions, deepMerge } from "./load-config.ts";
export { type RunningServer, type StartServerOptions, startServer } from "./server.ts";
