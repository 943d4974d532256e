// Calls to Sluice straight from Node (not through the page): setting up what a step needs, and
// checking what the server holds afterwards.
import assert from "node:assert/strict";

/** A token for a principal (all its roles). */
export async function tokenOf(c, id, secret) {
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: id,
    client_secret: secret,
    scope: "PRINCIPAL_ROLE:ALL",
  });
  const res = await fetch(`${c.url}/api/catalog/v1/oauth/tokens`, { method: "POST", body: form });
  assert.ok(res.ok, `token for ${id}: ${res.status}`);
  return (await res.json()).access_token;
}

/** A caller of the API under `base` (management or catalog) with a token; fails on an error. */
function caller(c, token, base) {
  return async (method, path, body) => {
    const res = await fetch(`${c.url}${base}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "X-Iceberg-Access-Delegation": "none",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

/** The management API as root. */
export async function rootApi(c) {
  return caller(c, await tokenOf(c, c.root.id, c.root.secret), "/api/management/v1");
}

/** Iceberg's REST catalog API as root. */
export async function rootCatalogApi(c) {
  return caller(c, await tokenOf(c, c.root.id, c.root.secret), "/api/catalog/v1");
}

/**
 * Whether this server answers GET /api/management/v1/actions (issue 36's endpoint). Without it the
 * console shows everything, as before, and the steps that need it say so.
 */
export async function hasActionsEndpoint(c) {
  if (c.state.actionsEndpoint === undefined) {
    const token = await tokenOf(c, c.root.id, c.root.secret);
    const res = await fetch(`${c.url}/api/management/v1/actions`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    c.state.actionsEndpoint = res.status !== 404 && res.status !== 405;
  }
  return c.state.actionsEndpoint;
}

/** The page's document is no wider than its viewport: nothing scrolls the page sideways. */
export async function assertNoSidewaysScroll(ui, width, where) {
  const scroll = await ui.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scroll <= width, `${where}: the page is ${scroll} px wide on a ${width} px screen`);
}
