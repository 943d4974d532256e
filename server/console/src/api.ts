// The console's only way to the server: the same REST APIs every client uses, with the bearer
// token held in memory (never in storage), so the console can do exactly what the API allows.
// Every management call is one function named after its operationId and typed from the OpenAPI
// document (src/generated/management-api.ts, made by `npm run types`), so a change to the
// document that breaks the console fails `npm run typecheck`.
import { quoteBigIntegers } from "./bigints";
import type { components, operations } from "./generated/management-api";

/** The management API's schemas (`components.schemas` of its OpenAPI document). */
export type Schemas = components["schemas"];

/** An Iceberg ErrorResponse (or a transport failure) as the console shows it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }

  get forbidden(): boolean {
    return this.status === 403;
  }
}

const MANAGEMENT = "/api/management/v1";
const CATALOG = "/api/catalog/v1";

let token: string | null = null;
let onExpired: () => void = () => {};

export interface Identity {
  principal: string;
  clientId: string;
}

/** The token endpoint's answer, success or OAuth2 error, as far as the console reads it. */
interface TokenAnswer {
  access_token?: string;
  error?: string | { message?: string };
  error_description?: string;
}

/** Exchanges a client id and secret for a token (OAuth2 client credentials); keeps it in memory. */
export async function login(clientId: string, clientSecret: string): Promise<Identity> {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: clientId,
    client_secret: clientSecret,
    scope: "PRINCIPAL_ROLE:ALL",
  });
  const res = await fetch(`${CATALOG}/oauth/tokens`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form,
  });
  const body = (await res.json().catch(() => ({}))) as TokenAnswer;
  if (!res.ok || !body.access_token) {
    const nested = typeof body.error === "object" ? body.error.message : undefined;
    const message = body.error_description ?? nested ?? `sign-in failed (HTTP ${res.status})`;
    throw new ApiError(res.status, typeof body.error === "string" ? body.error : "LoginFailed", message);
  }
  token = body.access_token;
  return identityOf(token, clientId);
}

/** The principal a token names: its subject claim (Sluice's tokens are JWTs). */
function identityOf(jwt: string, clientId: string): Identity {
  const payload = jwt.split(".")[1] ?? "";
  const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: unknown };
  return { principal: String(json.sub), clientId };
}

export function logout(): void {
  token = null;
}

export function signedIn(): boolean {
  return token !== null;
}

/** Called when the server answers 401: the token expired or was revoked. */
export function whenExpired(callback: () => void): void {
  onExpired = callback;
}

/** An error answer's `error` object (Iceberg's ErrorResponse), when the body has one. */
function errorOf(parsed: unknown): { type?: string; message?: string } | undefined {
  if (typeof parsed === "object" && parsed !== null && "error" in parsed) {
    const error = (parsed as { error: unknown }).error;
    if (typeof error === "object" && error !== null) {
      return error as { type?: string; message?: string };
    }
  }
  return undefined;
}

/**
 * One HTTP call, answered as `T`: the caller names the answer's type (from the OpenAPI document for
 * the management API, from src/iceberg.ts for the catalog API); the server's contract test is
 * what holds the answers to it, not a check here.
 */
async function call<T>(method: string, path: string, body?: unknown, exact = false): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (path.startsWith(CATALOG + "/")) {
    // Sluice's extension: no storage credentials for the console, even from a catalog that
    // vends unasked. Browsing mints nothing and no key reaches the browser.
    headers["X-Iceberg-Access-Delegation"] = "none";
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError(0, "NetworkError", `The server did not answer: ${String(e)}`);
  }
  if (res.status === 204) {
    return undefined as T;
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(exact ? quoteBigIntegers(text) : text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const error = errorOf(parsed);
    if (res.status === 401) {
      token = null;
      onExpired();
    }
    throw new ApiError(
      res.status,
      error?.type ?? "HttpError",
      error?.message ?? `HTTP ${res.status} from ${method} ${path}`,
    );
  }
  return parsed as T;
}

/** GET on the Iceberg REST catalog API (`/api/catalog/v1` + path); see src/iceberg.ts. */
export function catalogGet<T>(path: string): Promise<T> {
  return call<T>("GET", CATALOG + path);
}

/**
 * GET on the catalog API with 64-bit integers kept exact: Iceberg's snapshot ids do not fit a JS
 * number, so integers beyond 2^53 arrive as strings (JSON.parse would round them).
 */
export function catalogGetExact<T>(path: string): Promise<T> {
  return call<T>("GET", CATALOG + path, undefined, true);
}

/** A write on the catalog API (`/api/catalog/v1` + path). */
export function catalogSend<T>(method: "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  return call<T>(method, CATALOG + path, body);
}

// ---- The management API, one function per operationId, typed from the OpenAPI document ----

type Op = keyof operations;
/** An operation's query parameters. */
export type Query<O extends Op> = NonNullable<operations[O]["parameters"]["query"]>;
/** An operation's JSON request body. */
type Body<O extends Op> =
  NonNullable<operations[O]["requestBody"]> extends { content: { "application/json": infer B } } ? B : never;
/** An operation's JSON answer on success (200 or 201), or void when it answers no body. */
type Answer<O extends Op> = operations[O]["responses"] extends {
  200: { content: { "application/json": infer R } };
}
  ? R
  : operations[O]["responses"] extends { 201: { content: { "application/json": infer R } } }
    ? R
    : void;

/** A query string (with its "?") from the parameters given; undefined ones are left out. */
function queryOf(params: Record<string, string | number | boolean | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined) {
      query.set(k, String(v));
    }
  }
  const q = query.toString();
  return q ? `?${q}` : "";
}

function get<O extends Op>(_op: O, path: string, query?: Query<O>): Promise<Answer<O>> {
  return call("GET", MANAGEMENT + path + queryOf(query as Record<string, string | number | boolean>));
}

// POST and PUT send {} without a body, as the server reads a body on both.
function send<O extends Op>(
  _op: O,
  method: "POST" | "PUT",
  path: string,
  body?: Body<O>,
  query?: Query<O>,
): Promise<Answer<O>> {
  const q = queryOf(query as Record<string, string | number | boolean>);
  return call(method, MANAGEMENT + path + q, body ?? {});
}

function del<O extends Op>(_op: O, path: string, query?: Query<O>): Promise<void> {
  return call("DELETE", MANAGEMENT + path + queryOf(query as Record<string, string | number | boolean>));
}

/** A namespace as the management API's query parameter: levels joined by U+001F. */
const nsQuery = (levels: string[] | undefined) =>
  levels && levels.length > 0 ? levels.join("\u001f") : undefined;

export const listCatalogs = (q: Query<"listCatalogs"> = {}) => get("listCatalogs", "/catalogs", q);
export const createCatalog = (body: Schemas["CreateCatalogRequest"]) =>
  send("createCatalog", "POST", "/catalogs", body);
export const listStorageTypes = () => get("listStorageTypes", "/storage-types");
export const getCatalog = (name: string) => get("getCatalog", `/catalogs/${seg(name)}`);
export const updateCatalog = (name: string, body: Schemas["UpdateCatalogRequest"]) =>
  send("updateCatalog", "PUT", `/catalogs/${seg(name)}`, body);
export const deleteCatalog = (name: string) => del("deleteCatalog", `/catalogs/${seg(name)}`);
export const verifyCatalog = (name: string, body: Schemas["VerifyCatalogRequest"] = {}) =>
  send("verifyCatalog", "POST", `/catalogs/${seg(name)}/verify`, body);

export const createPrincipal = (body: Schemas["CreatePrincipalRequest"]) =>
  send("createPrincipal", "POST", "/principals", body);
export const listPrincipals = (q: Query<"listPrincipals"> = {}) => get("listPrincipals", "/principals", q);
export const getPrincipal = (principal: string) => get("getPrincipal", `/principals/${seg(principal)}`);
export const updatePrincipal = (principal: string, body: Schemas["UpdatePrincipalRequest"]) =>
  send("updatePrincipal", "PUT", `/principals/${seg(principal)}`, body);
export const deletePrincipal = (principal: string) =>
  del("deletePrincipal", `/principals/${seg(principal)}`);
export const rotateCredentials = (principal: string) =>
  send("rotateCredentials", "POST", `/principals/${seg(principal)}/rotate`);
export const listPrincipalRolesOfPrincipal = (principal: string, q: Query<"listPrincipalRolesOfPrincipal"> = {}) =>
  get("listPrincipalRolesOfPrincipal", `/principals/${seg(principal)}/principal-roles`, q);
export const assignPrincipalRole = (principal: string, body: Schemas["GrantPrincipalRoleRequest"]) =>
  send("assignPrincipalRole", "PUT", `/principals/${seg(principal)}/principal-roles`, body);
export const revokePrincipalRole = (principal: string, role: string) =>
  del("revokePrincipalRole", `/principals/${seg(principal)}/principal-roles/${seg(role)}`);

export const createPrincipalRole = (body: Schemas["CreatePrincipalRoleRequest"]) =>
  send("createPrincipalRole", "POST", "/principal-roles", body);
export const listPrincipalRoles = (q: Query<"listPrincipalRoles"> = {}) =>
  get("listPrincipalRoles", "/principal-roles", q);
export const getPrincipalRole = (role: string) => get("getPrincipalRole", `/principal-roles/${seg(role)}`);
export const deletePrincipalRole = (role: string) =>
  del("deletePrincipalRole", `/principal-roles/${seg(role)}`);
export const listPrincipalsWithRole = (role: string, q: Query<"listPrincipalsWithRole"> = {}) =>
  get("listPrincipalsWithRole", `/principal-roles/${seg(role)}/principals`, q);
export const listCatalogRolesOfPrincipalRole = (
  role: string,
  catalog: string,
  q: Query<"listCatalogRolesOfPrincipalRole"> = {},
) => get("listCatalogRolesOfPrincipalRole", `/principal-roles/${seg(role)}/catalog-roles/${seg(catalog)}`, q);
export const grantCatalogRole = (role: string, catalog: string, body: Schemas["GrantCatalogRoleRequest"]) =>
  send("grantCatalogRole", "PUT", `/principal-roles/${seg(role)}/catalog-roles/${seg(catalog)}`, body);
export const revokeCatalogRole = (role: string, catalog: string, catalogRole: string) =>
  del(
    "revokeCatalogRole",
    `/principal-roles/${seg(role)}/catalog-roles/${seg(catalog)}/${seg(catalogRole)}`,
  );

export const createCatalogRole = (catalog: string, body: Schemas["CreateCatalogRoleRequest"]) =>
  send("createCatalogRole", "POST", `/catalogs/${seg(catalog)}/catalog-roles`, body);
export const listCatalogRoles = (catalog: string, q: Query<"listCatalogRoles"> = {}) =>
  get("listCatalogRoles", `/catalogs/${seg(catalog)}/catalog-roles`, q);
export const getCatalogRole = (catalog: string, role: string) =>
  get("getCatalogRole", `/catalogs/${seg(catalog)}/catalog-roles/${seg(role)}`);
export const deleteCatalogRole = (catalog: string, role: string, q: Query<"deleteCatalogRole"> = {}) =>
  del("deleteCatalogRole", `/catalogs/${seg(catalog)}/catalog-roles/${seg(role)}`, q);
export const listPrincipalRolesWithCatalogRole = (
  catalog: string,
  role: string,
  q: Query<"listPrincipalRolesWithCatalogRole"> = {},
) =>
  get(
    "listPrincipalRolesWithCatalogRole",
    `/catalogs/${seg(catalog)}/catalog-roles/${seg(role)}/principal-roles`,
    q,
  );
const grantsPath = (catalog: string, role: string) =>
  `/catalogs/${seg(catalog)}/catalog-roles/${seg(role)}/grants`;
export const listGrants = (catalog: string, role: string, q: Query<"listGrants"> = {}) =>
  get("listGrants", grantsPath(catalog, role), q);
export const addGrant = (catalog: string, role: string, body: Schemas["GrantRequest"]) =>
  send("addGrant", "PUT", grantsPath(catalog, role), body);
export const revokeGrant = (
  catalog: string,
  role: string,
  body: Schemas["GrantRequest"],
  q: Query<"revokeGrant"> = {},
) => send("revokeGrant", "POST", grantsPath(catalog, role), body, q);

/** The securable explainPrivileges asks about; the namespace as its levels. */
export interface ExplainTarget {
  type: Query<"explainPrivileges">["type"];
  namespace?: string[];
  name?: string;
}
export const explainPrivileges = (catalog: string, principal: string, target: ExplainTarget) =>
  get(
    "explainPrivileges",
    `/catalogs/${seg(catalog)}/principals/${seg(principal)}/effective-privileges`,
    // An empty namespace is sent as such: the server names what is missing.
    { type: target.type, namespace: target.namespace?.join("\u001f"), name: target.name },
  );
export const getActions = () => get("getActions", "/actions");

/** Where in a catalog: the catalog itself, a namespace, or a table or view in one. */
export interface ActionTarget {
  namespace?: string[];
  table?: string;
  view?: string;
}
/** A table or view is named only inside a namespace, and only one of the two. */
export const getCatalogActions = (name: string, target: ActionTarget = {}) => {
  const namespace = nsQuery(target.namespace);
  const table = namespace !== undefined ? target.table : undefined;
  const view = namespace !== undefined && table === undefined ? target.view : undefined;
  return get("getCatalogActions", `/catalogs/${seg(name)}/actions`, { namespace, table, view });
};

export const listEvents = (q: Query<"listEvents"> = {}) => get("listEvents", "/events", q);
export const rotateSigningKey = () => send("rotateSigningKey", "POST", "/signing-keys/rotate");
export const listSigningKeys = () => get("listSigningKeys", "/signing-keys");
export const retireSigningKey = (kid: string) => del("retireSigningKey", `/signing-keys/${seg(kid)}`);

/**
 * The OpenAPI document itself, as JSON (no token needed). Its schema in the document is just
 * "an object", so the answer is `unknown` here and src/pages/apiref/model.ts narrows it.
 */
export const getOpenApiDocumentJson = (): Promise<unknown> =>
  call("GET", MANAGEMENT + "/openapi.json");
/** Where to download the document as YAML. */
export const OPENAPI_YAML = MANAGEMENT + "/openapi.yaml";

/**
 * What the caller may do, as the server answers it (`GET …/actions`: operation ids). `known` is
 * false when the server has no such endpoint (an older server): then every check says yes and
 * the console shows everything, as before, leaving the refusals to the API.
 */
export class Actions {
  private constructor(
    readonly known: boolean,
    private readonly ids: ReadonlySet<string>,
  ) {}

  static of(ids: string[]): Actions {
    return new Actions(true, new Set(ids));
  }

  static readonly UNKNOWN = new Actions(false, new Set());

  /** May the caller take operation `id`? Yes when the server did not say. */
  has(id: string): boolean {
    return !this.known || this.ids.has(id);
  }

  /** Like `has`, with `fallback` (what the console showed before) when the server did not say. */
  hasOr(id: string, fallback: boolean): boolean {
    return this.known ? this.ids.has(id) : fallback;
  }

  /** One of the ids at least (a section holding several operations). */
  hasSome(...ids: string[]): boolean {
    return ids.some((id) => this.has(id));
  }
}

async function actionsOf(load: () => Promise<Schemas["Actions"]>): Promise<Actions> {
  try {
    const answer = await load();
    return Actions.of((answer?.actions ?? []).map(String));
  } catch (e) {
    // 404/405: a server without the endpoint. Anything else is a real failure.
    if (e instanceof ApiError && (e.status === 404 || e.status === 405)) {
      return Actions.UNKNOWN;
    }
    throw e;
  }
}

/** The management operations the caller may take that are not about one catalog. */
export function loadServiceActions(): Promise<Actions> {
  return actionsOf(getActions);
}

/** The operations the caller may take on a catalog, or on a namespace, table or view in it. */
export function loadCatalogActions(catalog: string, target: ActionTarget = {}): Promise<Actions> {
  return actionsOf(() => getCatalogActions(catalog, target));
}

/** The names of the catalogs the caller can see (every page of `GET /catalogs`). */
export async function listCatalogNames(): Promise<string[]> {
  const catalogs = await all(listCatalogs, "catalogs");
  return catalogs.map((c) => String(c.name));
}

/** A page's link to the next: the management API says nextPageToken, Iceberg's next-page-token. */
export interface NextPage {
  nextPageToken?: string | null;
  "next-page-token"?: string | null;
}
/** What a list of T holds (never for a field that is not a list). */
type ItemOf<A> = A extends readonly (infer T)[] ? T : never;

/** Which page to answer (none: the first). */
export interface PageQuery {
  pageToken?: string;
}

/**
 * Every page of a paged list, up to `limit` items: `list` answers one page. A lambda passed as
 * `list` declares its parameter's type (`(page: PageQuery) => …`): TS infers the page's type
 * from it before reading `field`.
 */
export async function all<P extends NextPage, K extends keyof P>(
  list: (page: PageQuery) => Promise<P>,
  field: K,
  limit = 5000,
): Promise<ItemOf<NonNullable<P[K]>>[]> {
  const items: ItemOf<NonNullable<P[K]>>[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list(pageToken ? { pageToken } : {});
    items.push(...((page[field] ?? []) as ItemOf<NonNullable<P[K]>>[]));
    pageToken = page.nextPageToken ?? page["next-page-token"] ?? undefined;
  } while (pageToken && items.length < limit);
  return items;
}

/** A path segment, percent-encoded. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/** A namespace in a catalog API path: levels joined by the unit separator, encoded. */
export function nsPath(levels: string[]): string {
  return encodeURIComponent(levels.join("\u001f"));
}

/** The Prometheus text of /metrics (public). */
export async function metricsText(): Promise<string> {
  const res = await fetch("/metrics");
  if (!res.ok) {
    throw new ApiError(res.status, "HttpError", `HTTP ${res.status} from /metrics`);
  }
  return res.text();
}
