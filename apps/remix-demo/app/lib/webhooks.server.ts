import { data } from "@remix-run/node";
import {
  EVENT_TYPES,
  type EventType,
  isAuthError,
  ORGANIZATION_EVENT_TYPES,
  type WebhookDelivery,
} from "@tessera/auth-core";
import { getAuth } from "~/auth.server";
import { failure, field, invalid, readForm, redirectWith } from "./forms.server";
import { requireOrganization } from "./org.server";

/**
 * The webhook pages of both scopes (routes/admin.webhooks*.tsx: the app-wide endpoints;
 * routes/organizations.$slug.webhooks*.tsx: one organization's). The core decides who may manage
 * which scope (features/webhooks guards); these pages show its refusal in words.
 */
export interface WebhookScope {
  /** Absent: the app-wide endpoints. */
  organizationId?: string;
  /** The list page's path; an endpoint's page is `${base}/${id}`. */
  base: string;
}

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  lastDelivery: { status: WebhookDelivery["status"]; statusCode: number | null } | null;
}

export interface WebhookDeliveryView {
  id: string;
  eventType: string;
  status: WebhookDelivery["status"];
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** The URL's organization (404 to a non-member, lib/org.server.ts) as a webhook scope. */
export async function organizationWebhookScope(
  request: Request,
  slug: string | undefined,
): Promise<WebhookScope> {
  const { organization } = await requireOrganization(request, slug);
  return { organizationId: organization.id, base: `/organizations/${organization.slug}/webhooks` };
}

/** The core's refusal of the whole page (not allowed, webhooks off), answered with its status. */
export function refusePage(error: unknown) {
  if (!isAuthError(error)) throw error;
  return data({ refusal: error.code }, { status: error.status });
}

function scopeOf(scope: WebhookScope) {
  return scope.organizationId ? { organizationId: scope.organizationId } : {};
}

/** The list page's data (components/webhook-endpoints.tsx WebhookEndpointsPage), or the core's refusal. */
export async function loadWebhookListPage(request: Request, scope: WebhookScope) {
  try {
    const endpoints = await loadWebhookEndpoints(request, scope);
    const deleting = new URL(request.url).searchParams.get("delete");
    return {
      refusal: null,
      base: scope.base,
      // An organization's endpoint receives only its organization's events (the core refuses others).
      eventTypes: scope.organizationId ? ORGANIZATION_EVENT_TYPES : EVENT_TYPES,
      endpoints,
      deleting: endpoints.some((endpoint) => endpoint.id === deleting) ? deleting : null,
    };
  } catch (error) {
    return refusePage(error);
  }
}

/** One endpoint's page data (components/webhook-deliveries.tsx WebhookDeliveriesPage), or the core's refusal. */
export async function loadWebhookEndpointPage(request: Request, scope: WebhookScope, endpointId: string) {
  try {
    const { data: endpoint } = await (await getAuth()).api.getWebhookEndpoint({
      query: { ...scopeOf(scope), endpointId },
      headers: request.headers,
    });
    const deliveries = await loadWebhookDeliveries(request, scope, endpointId);
    return {
      refusal: null,
      base: scope.base,
      endpoint: { id: endpoint.id, url: endpoint.url, enabled: endpoint.enabled },
      deliveries,
    };
  } catch (error) {
    return refusePage(error);
  }
}

async function loadWebhookEndpoints(request: Request, scope: WebhookScope) {
  const auth = await getAuth();
  const headers = request.headers;
  const { data: endpoints } = await auth.api.listWebhookEndpoints({ query: scopeOf(scope), headers });
  return Promise.all(
    endpoints.map(async (endpoint): Promise<WebhookEndpointView> => {
      const { data: last } = await auth.api.listWebhookDeliveries({
        query: { ...scopeOf(scope), endpointId: endpoint.id, limit: 1 },
        headers,
      });
      const delivery = last[0];
      return {
        id: endpoint.id,
        url: endpoint.url,
        description: endpoint.description,
        eventTypes: endpoint.eventTypes,
        enabled: endpoint.enabled,
        disabledReason: endpoint.disabledReason,
        previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
        lastDelivery: delivery
          ? { status: delivery.status, statusCode: delivery.attempts.at(-1)?.statusCode ?? null }
          : null,
      };
    }),
  );
}

async function loadWebhookDeliveries(
  request: Request,
  scope: WebhookScope,
  endpointId: string,
): Promise<WebhookDeliveryView[]> {
  const { data: deliveries } = await (await getAuth()).api.listWebhookDeliveries({
    query: { ...scopeOf(scope), endpointId, limit: 50 },
    headers: request.headers,
  });
  return deliveries.map((delivery) => {
    const last = delivery.attempts.at(-1);
    return {
      id: delivery.id,
      eventType: delivery.eventType,
      status: delivery.status,
      durationMs: last?.durationMs ?? null,
      statusCode: last?.statusCode ?? null,
      error: last?.error ?? null,
      attempts: delivery.attempts.length,
      nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
      createdAt: delivery.createdAt.toISOString(),
    };
  });
}

/** What an action answers when it must show a secret: once, in this answer only (never stored here). */
export interface SecretAnswer {
  secret: { endpointId: string; value: string; kind: "created" | "rotated"; previousUntil: string | null };
}

/** Which field of the add form each refusal concerns. */
const ADD_FIELDS = { INVALID_WEBHOOK_URL: "url" };

/**
 * The actions of both pages: add (answers the secret), enable/disable, rotate (answers the new
 * secret), test, replay one delivery, delete. Each success but the secrets redirects (PRG).
 */
export async function runWebhookAction(request: Request, scope: WebhookScope) {
  const form = await readForm(request);
  const auth = await getAuth();
  const headers = request.headers;
  const intent = field(form, "intent");
  const endpointId = field(form, "endpointId");
  const ref = { ...scopeOf(scope), endpointId };
  try {
    if (intent === "add") {
      const url = field(form, "url").trim();
      if (!url) return invalid({ url: "REQUIRED" }, form);
      const chosen = form
        .getAll("eventTypes")
        .filter((value): value is EventType => (EVENT_TYPES as readonly unknown[]).includes(value));
      const { data: created } = await auth.api.createWebhookEndpoint({
        body: { ...scopeOf(scope), url, eventTypes: chosen, description: field(form, "description").trim() },
        headers,
      });
      const value = { endpointId: created.endpoint.id, value: created.secret, kind: "created" as const };
      return data<SecretAnswer>({ secret: { ...value, previousUntil: null } });
    }
    if (intent === "rotate") {
      const { data: rotated } = await auth.api.rotateWebhookSecret({ body: ref, headers });
      const previousUntil = rotated.endpoint.previousSecretExpiresAt?.toISOString() ?? null;
      return data<SecretAnswer>({
        secret: { endpointId, value: rotated.secret, kind: "rotated", previousUntil },
      });
    }
    if (intent === "enable" || intent === "disable") {
      await auth.api.updateWebhookEndpoint({ body: { ...ref, enabled: intent === "enable" }, headers });
      return redirectWith(`${scope.base}?done=${intent}d`);
    }
    if (intent === "test") {
      await auth.api.testWebhookEndpoint({ body: ref, headers });
      return redirectWith(`${scope.base}/${encodeURIComponent(endpointId)}?done=tested`);
    }
    if (intent === "replay") {
      const deliveryId = field(form, "deliveryId");
      await auth.api.replayWebhookDeliveries({ body: { ...ref, deliveryId }, headers });
      return redirectWith(`${scope.base}/${encodeURIComponent(endpointId)}?done=replayed`);
    }
    if (intent === "delete") {
      await auth.api.deleteWebhookEndpoint({ body: ref, headers });
      return redirectWith(`${scope.base}?done=deleted`);
    }
    return invalid({ form: "VALIDATION_ERROR" }, form);
  } catch (error) {
    return failure(error, form, intent === "add" ? ADD_FIELDS : {});
  }
}
