import { readFileSync } from "node:fs";

/**
 * Established TCP connections on 127.0.0.1 whose local or remote port is `port`, from /proc/net/tcp
 * (Linux; NaN elsewhere). Counted from the listening side: `local` counts connections accepted on
 * `port` (a server's clients), `remote` connections made to `port` (a driver's pool).
 */
export function establishedConnections(port: number, side: "local" | "remote"): number {
  let table: string;
  try {
    table = readFileSync("/proc/net/tcp", "utf8");
  } catch {
    return Number.NaN;
  }
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  let count = 0;
  for (const line of table.split("\n").slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (state !== "01" || !local || !remote) continue; // 01: ESTABLISHED
    const endpoint = side === "local" ? local : remote;
    if (endpoint.endsWith(`:${hex}`)) count++;
  }
  return count;
}
