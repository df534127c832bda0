import type { CreatedWebhookEndpoint, EventType, WebhookDelivery, WebhookEndpoint } from "@tessera/auth-core";
import { Command, Option } from "commander";
import { CliError, toKnownError, usageError } from "../errors.ts";
import { confirmOrRefuse, contextOf, noteEmpty, type RunContext, readTimeOption, report } from "../kit.ts";
import { type OperatorSession, resolveOrganization, withOperator } from "../operator.ts";
import { formatDate, formatTable } from "../table.ts";

/**
 * `tessera webhooks …`: the webhook endpoints through the same endpoints as the admin and
 * organization pages (features/webhooks), as the operator: app-wide endpoints, or an organization's
 * with `--org <id or slug>`.
 */

interface ScopeOption {
  org?: string | undefined;
}

/**
 * withOperator, where the core's "Webhooks are not enabled" also says what to do: the CLI knows the
 * app's webhooks option only from its options module (packages/cli/src/connection.ts), so name the
 * module read, or say that none was found.
 */
async function withWebhooks<T>(
  run: RunContext,
  options: ScopeOption,
  work: (session: OperatorSession, scope: Scope) => Promise<T>,
): Promise<T> {
  const opened: { config: string | null } = { config: null };
  try {
    return await withOperator(run, async (session) => {
      opened.config = session.config;
      return work(session, await scopeOf(session, options));
    });
  } catch (error) {
    const known = toKnownError(error);
    if (known?.code !== "WEBHOOKS_NOT_ENABLED") throw error;
    const read = opened.config ? `${opened.config} does not turn them on` : "no tessera.config.ts was found";
    throw new CliError(
      known.code,
      `${known.message}: ${read}. Pass the app's options with --config (webhooks: { enabled: true })`,
      known.exitCode,
    );
  }
}

type Scope = { organizationId?: string };

/** --org by id or slug, as `tessera events list --org` and `orgs … <org>` take it; unknown is exit 3. */
async function scopeOf(session: OperatorSession, options: ScopeOption): Promise<Scope> {
  if (options.org === undefined) return {};
  const org = await resolveOrganization(session, options.org);
  return { organizationId: org._id.toHexString() };
}

/** `tessera webhooks list [--org <organization>]`: the scope's endpoints. */
export function webhooksListAction(run: RunContext, options: ScopeOption): Promise<WebhookEndpoint[]> {
  return withWebhooks(run, options, async (session, scope) => {
    const { data } = await session.api.listWebhookEndpoints({
      query: scope,
      headers: session.headers,
    });
    return data;
  });
}

export interface WebhooksAddOptions extends ScopeOption {
  events?: string | undefined;
  description?: string | undefined;
}

/** `tessera webhooks add <url>`: registers an endpoint; its secret is printed this once. */
export function webhooksAddAction(
  run: RunContext,
  url: string,
  options: WebhooksAddOptions,
): Promise<CreatedWebhookEndpoint> {
  const eventTypes = options.events
    ?.split(",")
    .map((type) => type.trim())
    .filter(Boolean) as EventType[] | undefined; // each checked against the catalogue by the core
  return withWebhooks(run, options, async (session, scope) => {
    const { data } = await session.api.createWebhookEndpoint({
      body: {
        ...scope,
        url,
        ...(eventTypes ? { eventTypes } : {}),
        ...(options.description ? { description: options.description } : {}),
      },
      headers: session.headers,
    });
    return data;
  });
}

/** The endpoint a command names, read first: a prompt says which URL it affects; unknown is exit 3. */
async function readEndpoint(session: OperatorSession, id: string, scope: Scope) {
  const { data } = await session.api.getWebhookEndpoint({
    query: { ...scope, endpointId: id },
    headers: session.headers,
  });
  return data;
}

/** `tessera webhooks remove <id>`: removes the endpoint and its deliveries, after asking. */
export function webhooksRemoveAction(
  run: RunContext,
  id: string,
  options: ScopeOption & { yes?: boolean | undefined },
): Promise<{ success: true; endpointId: string }> {
  return withWebhooks(run, options, async (session, scope) => {
    const endpoint = await readEndpoint(session, id, scope);
    await confirmOrRefuse(
      run,
      options.yes,
      `Remove the webhook endpoint ${endpoint.id} (${endpoint.url}) and its deliveries?`,
    );
    await session.api.deleteWebhookEndpoint({
      body: { ...scope, endpointId: id },
      headers: session.headers,
    });
    return { success: true, endpointId: id };
  });
}

/** `tessera webhooks test <id>`: queues a `webhook.test` event to the endpoint. */
export function webhooksTestAction(
  run: RunContext,
  id: string,
  options: ScopeOption,
): Promise<WebhookDelivery> {
  return withWebhooks(run, options, async (session, scope) => {
    const { data } = await session.api.testWebhookEndpoint({
      body: { ...scope, endpointId: id },
      headers: session.headers,
    });
    return data;
  });
}

export interface WebhooksReplayOptions extends ScopeOption {
  delivery?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/** `tessera webhooks replay <id> (--delivery <webhook-id> | --since <time> [--until <time>])`. */
export async function webhooksReplayAction(
  run: RunContext,
  id: string,
  options: WebhooksReplayOptions,
): Promise<{ replayed: number }> {
  if ((options.delivery === undefined) === (options.since === undefined))
    throw usageError("name one delivery (--delivery) or a time range (--since, optionally --until)");
  const now = new Date();
  const from = options.since === undefined ? undefined : readTimeOption("--since", options.since, now);
  const to = options.until === undefined ? undefined : readTimeOption("--until", options.until, now);
  return withWebhooks(run, options, async (session, scope) => {
    const { data } = await session.api.replayWebhookDeliveries({
      body: {
        ...scope,
        endpointId: id,
        ...(options.delivery !== undefined ? { deliveryId: options.delivery } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      },
      headers: session.headers,
    });
    return data;
  });
}

const orgOption = () =>
  new Option(
    "--org <organization>",
    "an organization's endpoints, by id or slug (default: the app-wide ones)",
  );

export const webhooksCommand = new Command("webhooks")
  .description("webhook endpoints and their deliveries")
  .addCommand(
    new Command("list")
      .description("list webhook endpoints")
      .addOption(orgOption())
      .action(async (options: ScopeOption, command: Command) => {
        const run = contextOf(command);
        const endpoints = await webhooksListAction(run, options);
        noteEmpty(run, endpoints.length, "No webhook endpoints.");
        report(run, endpoints, (data) =>
          formatTable(
            run.io,
            ["ID", "URL", "EVENTS", "ENABLED", "FAILING SINCE", "CREATED"],
            data.map((row) => [
              row.id,
              row.url,
              row.eventTypes.length === 0 ? "all" : row.eventTypes.join(","),
              row.enabled ? "yes" : `no${row.disabledReason ? ` (${row.disabledReason})` : ""}`,
              row.failingSince ? formatDate(row.failingSince) : "-",
              formatDate(row.createdAt),
            ]),
          ),
        );
      }),
  )
  .addCommand(
    new Command("add")
      .description("register a webhook endpoint (its signing secret is shown once)")
      .argument("<url>", "the receiver's https URL")
      .addOption(orgOption())
      .option("--events <types>", "comma-separated event types (default: all)")
      .option("--description <text>", "what the endpoint is for")
      .action(async (url: string, options: WebhooksAddOptions, command: Command) => {
        const run = contextOf(command);
        report(run, await webhooksAddAction(run, url, options), (data) => [
          `registered webhook endpoint ${data.endpoint.id} for ${data.endpoint.url}`,
          `signing secret (shown once): ${data.secret}`,
        ]);
      }),
  )
  .addCommand(
    new Command("remove")
      .description("remove a webhook endpoint and its deliveries")
      .argument("<endpoint-id>")
      .addOption(orgOption())
      .addOption(new Option("-y, --yes", "do it without asking (needed without a terminal)"))
      .action(async (id: string, options: ScopeOption & { yes?: boolean }, command: Command) => {
        const run = contextOf(command);
        report(run, await webhooksRemoveAction(run, id, options), () => [`removed webhook endpoint ${id}`]);
      }),
  )
  .addCommand(
    new Command("test")
      .description("send a webhook.test event to an endpoint")
      .argument("<endpoint-id>")
      .addOption(orgOption())
      .action(async (id: string, options: ScopeOption, command: Command) => {
        const run = contextOf(command);
        report(run, await webhooksTestAction(run, id, options), (data) => [
          `queued test delivery ${data.id}: a server with webhooks enabled sends it within a second`,
        ]);
      }),
  )
  .addCommand(
    new Command("replay")
      .description("send deliveries again, with the same webhook-id")
      .argument("<endpoint-id>")
      .addOption(orgOption())
      .option("--delivery <webhook-id>", "one delivery")
      .option(
        "--since <time>",
        "the deliveries created since this time (ISO 8601, or a span back from now: 1h, 7d)",
      )
      .option("--until <time>", "... and before this time (default: now)")
      .action(async (id: string, options: WebhooksReplayOptions, command: Command) => {
        const run = contextOf(command);
        report(run, await webhooksReplayAction(run, id, options), (data) => [
          `${data.replayed} ${data.replayed === 1 ? "delivery" : "deliveries"} due again`,
        ]);
      }),
  );
