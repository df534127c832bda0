import { type Answer, type HttpTarget, Person } from "./http-client.ts";
import { createLedger, type Ledger } from "./ledger.ts";

/**
 * Mixed traffic of people who sign up, sign in, read their session, rename themselves, create
 * organizations, invite each other, accept, switch the active organization and sign out. One
 * person per connection, each waiting for its answer and pausing before the next request (a closed
 * loop). Every run is bounded by a deadline and a number of turns.
 *
 * Before the clock starts, each connection's first person signs up, a few at a time: on two shared
 * cores the server hashes a handful of passwords a second, and 200 sign-ups at once would only
 * measure scrypt's queue against the request deadline. During the run, 2.5% of turns hash a
 * password (a sign-out followed by a sign-in, or a new person).
 */
export interface TrafficOptions {
  target: HttpTarget;
  connections: number;
  durationMs: number;
  /** Turns per connection at most, whatever the time. */
  maxTurns: number;
  /** Called when the warm-up is over and the clock starts. */
  onStart?: () => void;
  /** A person's pause between two requests, drawn uniformly from [min, max]. */
  thinkMs: readonly [number, number];
  /** Distinguishes emails and slugs of runs that share a database. */
  runId: string;
}

export interface Exchange {
  endpoint: string;
  /** `performance.now()` when the request was sent. */
  startedAt: number;
  answer: Answer;
}

export interface TrafficResult {
  ledger: Ledger;
  exchanges: Exchange[];
}

interface Actor {
  person: Person;
  email: string;
  userId: string | null;
  name: string;
  isSignedIn: boolean;
  owned: string[];
  memberOf: string[];
  /** The active organizations the session may hold; null once a failed write left it unknown. */
  active: Set<string | null> | null;
}

const PASSWORD = "reliability-password-1";
const SIGN_UP_CONCURRENCY = 4;

interface World {
  options: TrafficOptions;
  ledger: Ledger;
  exchanges: Exchange[];
  actors: Actor[];
  /** `${organizationId}|${email}` already invited (or attempted): never invited twice. */
  invited: Set<string>;
  pending: Map<string, { id: string; organizationId: string }[]>;
  serial: number;
}

export async function runTraffic(options: TrafficOptions): Promise<TrafficResult> {
  const world: World = {
    options,
    ledger: createLedger(),
    exchanges: [],
    actors: [],
    invited: new Set(),
    pending: new Map(),
    serial: 0,
  };
  const first: Actor[] = [];
  const queue = Array.from({ length: options.connections }, (_, index) => index);
  await Promise.all(
    Array.from({ length: SIGN_UP_CONCURRENCY }, async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        first[index] = await signUp(world);
      }
    }),
  );
  options.onStart?.();
  const until = performance.now() + options.durationMs;
  await Promise.all(
    first.map(async (firstActor) => {
      let actor = firstActor;
      for (let turn = 0; turn < options.maxTurns && performance.now() < until; turn++) {
        const [min, max] = options.thinkMs;
        await sleep(Math.min(min + Math.random() * (max - min), until - performance.now()));
        if (performance.now() >= until) break;
        actor = await takeTurn(world, actor);
      }
    }),
  );
  for (const actor of world.actors) {
    if (actor.isSignedIn && actor.userId && actor.active)
      world.ledger.live.push({ person: actor.person, userId: actor.userId, active: actor.active });
  }
  return { ledger: world.ledger, exchanges: world.exchanges };
}

async function call(world: World, actor: Actor, endpoint: string, body?: unknown): Promise<Answer> {
  const startedAt = performance.now();
  const answer =
    body === undefined ? await actor.person.get(endpoint) : await actor.person.post(endpoint, body);
  world.exchanges.push({ endpoint, startedAt, answer });
  return answer;
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

async function signUp(world: World): Promise<Actor> {
  const serial = world.serial++;
  const actor: Actor = {
    person: new Person(world.options.target),
    email: `p${serial}-${world.options.runId}@example.com`,
    userId: null,
    name: `Person ${serial}`,
    isSignedIn: false,
    owned: [],
    memberOf: [],
    active: new Set([null]),
  };
  world.actors.push(actor);
  const answer = await call(world, actor, "/sign-up/email", {
    name: actor.name,
    email: actor.email,
    password: PASSWORD,
  });
  if (ok(answer)) {
    const id = (answer.body as { user: { id: string } }).user.id;
    actor.userId = id;
    actor.isSignedIn = true;
    world.ledger.users.set(id, { email: actor.email, names: new Set([actor.name]) });
  }
  return actor;
}

async function takeTurn(world: World, actor: Actor): Promise<Actor> {
  if (!actor.userId) return signUp(world);
  if (!actor.isSignedIn) return signIn(world, actor);
  const roll = Math.random() * 100;
  if (roll < 30) await call(world, actor, "/get-session");
  else if (roll < 45) await rename(world, actor);
  else if (roll < 55) await setActive(world, actor);
  else if (roll < 60 && actor.owned.length < 2) await createOrganization(world, actor);
  else if (roll < 72) await invite(world, actor);
  else if (roll < 84) await accept(world, actor);
  else if (roll < 86) await signOut(world, actor);
  else if (roll < 86.5) return signUp(world);
  else await call(world, actor, "/get-session");
  return actor;
}

async function signIn(world: World, actor: Actor): Promise<Actor> {
  actor.person.forgetCookies();
  const answer = await call(world, actor, "/sign-in/email", { email: actor.email, password: PASSWORD });
  if (ok(answer)) {
    actor.isSignedIn = true;
    actor.active = new Set([null]);
  }
  return actor;
}

async function rename(world: World, actor: Actor): Promise<void> {
  const name = `${actor.name} ${Math.floor(Math.random() * 1e6)}`;
  const answer = await call(world, actor, "/update-user", { name });
  const names = world.ledger.users.get(actor.userId ?? "")?.names;
  if (!names) return;
  if (ok(answer)) names.clear();
  names.add(name);
}

function widenActive(actor: Actor, organizationId: string | null, acknowledged: boolean): void {
  if (acknowledged && organizationId !== undefined) actor.active = new Set([organizationId]);
  else actor.active?.add(organizationId);
}

async function setActive(world: World, actor: Actor): Promise<void> {
  const organizationId = pick(actor.memberOf);
  if (!organizationId) return void (await call(world, actor, "/get-session"));
  const answer = await call(world, actor, "/organization/set-active", { organizationId });
  widenActive(actor, organizationId, ok(answer));
}

async function createOrganization(world: World, actor: Actor): Promise<void> {
  const slug = `org-${world.serial++}-${world.options.runId}`;
  const answer = await call(world, actor, "/organization/create", { name: slug, slug });
  if (!ok(answer)) {
    actor.active = null; // it may exist, and be active, under an id nobody was told
    return;
  }
  const id = (answer.body as { id: string }).id;
  world.ledger.organizations.add(id);
  world.ledger.members.add(`${id}|${actor.userId}`);
  actor.owned.push(id);
  actor.memberOf.push(id);
  widenActive(actor, id, true);
}

async function invite(world: World, actor: Actor): Promise<void> {
  const organizationId = pick(actor.owned);
  const invitee = pick(world.actors.filter((other) => other.userId && other !== actor));
  if (!organizationId || !invitee || world.invited.has(`${organizationId}|${invitee.email}`))
    return void (await call(world, actor, "/get-session"));
  world.invited.add(`${organizationId}|${invitee.email}`);
  const answer = await call(world, actor, "/organization/invite-member", {
    email: invitee.email,
    role: "member",
    organizationId,
  });
  if (!ok(answer)) return;
  const id = (answer.body as { id: string }).id;
  world.ledger.invitations.add(id);
  const list = world.pending.get(invitee.email) ?? [];
  list.push({ id, organizationId });
  world.pending.set(invitee.email, list);
}

async function accept(world: World, actor: Actor): Promise<void> {
  const invitation = world.pending.get(actor.email)?.shift();
  if (!invitation) return void (await call(world, actor, "/get-session"));
  const answer = await call(world, actor, "/organization/accept-invitation", { invitationId: invitation.id });
  // Accepting makes the organization active on this session (or may have, when unanswered).
  widenActive(actor, invitation.organizationId, false);
  if (!ok(answer)) return;
  world.ledger.accepted.add(invitation.id);
  world.ledger.members.add(`${invitation.organizationId}|${actor.userId}`);
  actor.memberOf.push(invitation.organizationId);
}

async function signOut(world: World, actor: Actor): Promise<void> {
  const cookie = actor.person.cookieHeader;
  const answer = await call(world, actor, "/sign-out", {});
  actor.isSignedIn = false;
  if (ok(answer)) world.ledger.signedOut.push(cookie);
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function pick<T>(items: readonly T[]): T | undefined {
  return items[Math.floor(Math.random() * items.length)];
}
