// The console's only way to the server: the same REST APIs every client uses, with the bearer
// token held in memory (never in storage), so the console can do exactly what the API allows.

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

export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const MANAGEMENT = "/api/management/v1";
const CATALOG = "/api/catalog/v1";

let token: string | null = null;
let onExpired: () => void = () => {};

export interface Identity {
  principal: string;
  clientId: string;
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
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const message =
      body.error_description ?? body.error?.message ?? `sign-in failed (HTTP ${res.status})`;
    throw new ApiError(res.status, body.error ?? "LoginFailed", message);
  }
  token = body.access_token as string;
  return identityOf(token, clientId);
}

/** The principal a token names: its subject claim (Sluice's tokens are JWTs). */
function identityOf(jwt: string, clientId: string): Identity {
  const payload = jwt.split(".")[1] ?? "";
  const json = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
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

async function call(
  method: string,
  path: string,
  body?: unknown,
  exact = false,
): Promise<Json> {
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
    return null;
  }
  const text = await res.text();
  let parsed: Json = null;
  try {
    parsed = text ? JSON.parse(exact ? quoteBigIntegers(text) : text) : null;
  } catch {
    parsed = text;
  }
  if (!res.ok) {
    const error = parsed?.error;
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
  return parsed;
}

export const management = {
  get: (path: string) => call("GET", MANAGEMENT + path),
  post: (path: string, body?: unknown) => call("POST", MANAGEMENT + path, body ?? {}),
  put: (path: string, body?: unknown) => call("PUT", MANAGEMENT + path, body ?? {}),
  delete: (path: string) => call("DELETE", MANAGEMENT + path),
};

export const catalogApi = {
  get: (path: string) => call("GET", CATALOG + path),
};

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

  /** Any of the ids (a section holding several operations). */
  any(...ids: string[]): boolean {
    return ids.some((id) => this.has(id));
  }
}

interface ActionsAnswer {
  actions?: string[];
}

async function actionsAt(path: string): Promise<Actions> {
  try {
    const answer = (await call("GET", MANAGEMENT + path)) as ActionsAnswer | null;
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
  return actionsAt("/actions");
}

/** Where in a catalog: the catalog itself, a namespace, or a table or view in one. */
export interface ActionTarget {
  namespace?: string[];
  table?: string;
  view?: string;
}

/** The operations the caller may take on a catalog, or on a namespace, table or view in it. */
export function loadCatalogActions(catalog: string, target: ActionTarget = {}): Promise<Actions> {
  const query = new URLSearchParams();
  if (target.namespace && target.namespace.length > 0) {
    query.set("namespace", target.namespace.join("\u001f"));
    if (target.table !== undefined) {
      query.set("table", target.table);
    } else if (target.view !== undefined) {
      query.set("view", target.view);
    }
  }
  const q = query.toString();
  return actionsAt(`/catalogs/${seg(catalog)}/actions${q ? `?${q}` : ""}`);
}

/** The names of the catalogs the caller can see (every page of `GET /catalogs`). */
export async function listCatalogNames(): Promise<string[]> {
  const catalogs: { name: string }[] = await all(management.get, "/catalogs", "catalogs");
  return catalogs.map((c) => String(c.name));
}

/** A namespace to create: its levels (the parent's and its own name) and properties. */
export interface CreateNamespaceRequest {
  namespace: string[];
  properties?: Record<string, string>;
}

export interface CreateNamespaceResponse {
  namespace: string[];
  properties?: Record<string, string>;
}

/** Iceberg REST createNamespace. */
export async function createNamespace(
  prefix: string,
  request: CreateNamespaceRequest,
): Promise<CreateNamespaceResponse> {
  return (await call("POST", `${CATALOG}/${seg(prefix)}/namespaces`, {
    namespace: request.namespace,
    properties: request.properties ?? {},
  })) as CreateNamespaceResponse;
}

/** Iceberg REST dropNamespace: the server refuses (409) a namespace that is not empty. */
export async function dropNamespace(prefix: string, levels: string[]): Promise<void> {
  await call("DELETE", `${CATALOG}/${seg(prefix)}/namespaces/${nsPath(levels)}`);
}

/** Iceberg REST dropTable, without purging its files (the default). */
export async function dropTable(prefix: string, levels: string[], name: string): Promise<void> {
  await call("DELETE", `${CATALOG}/${seg(prefix)}/namespaces/${nsPath(levels)}/tables/${seg(name)}`);
}

/** Every page of a paged list (`next-page-token`), up to `limit` items. */
export async function all(
  get: (path: string) => Promise<Json>,
  path: string,
  field: string,
  limit = 5000,
): Promise<Json[]> {
  const items: Json[] = [];
  let pageToken: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page: Json = await get(
      pageToken ? `${path}${sep}pageToken=${encodeURIComponent(pageToken)}` : path,
    );
    items.push(...(page[field] ?? []));
    // The management API says nextPageToken, Iceberg's catalog API next-page-token.
    pageToken = page.nextPageToken ?? page["next-page-token"] ?? null;
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

/**
 * GET on the catalog API with 64-bit integers kept exact: Iceberg's snapshot ids do not fit a JS
 * number, so integers beyond 2^53 arrive as strings (JSON.parse would round them).
 */
export function catalogGetExact(path: string): Promise<Json> {
  return call("GET", CATALOG + path, undefined, true);
}

/** JSON text with every integer literal beyond Number.MAX_SAFE_INTEGER turned into a string. */
export function quoteBigIntegers(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      // Copy a string literal as is, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === "\\" ? 2 : 1;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) {
        j++;
      }
      const literal = text.slice(i, j);
      const unsafe = /^-?\d+$/.test(literal) && !Number.isSafeInteger(Number(literal));
      out += unsafe ? `"${literal}"` : literal;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}
