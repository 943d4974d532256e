// Access: principals (the secret shown once), roles, a grant in the matrix and what the principal
// then sees, effective privileges explained, and an unprivileged principal seeing only its own.
import assert from "node:assert/strict";
import { hasActionsEndpoint } from "./api.mjs";

/** Creates a principal on the Principals tab and reads its one-time credentials off the page. */
async function createPrincipal(ui, name) {
  const { page } = ui;
  await page.getByLabel("Principal name").fill(name);
  await page.getByRole("button", { name: "Create principal" }).click();
  const box = page.locator(".secret", { hasText: `Credentials of new principal ${name}` });
  await box.waitFor();
  assert.match(await box.innerText(), /Copy it now, it will not be shown again/);
  const [clientId, clientSecret] = await box.locator("dd code").allInnerTexts();
  assert.ok(clientId && clientSecret, "the box shows a client id and a secret");
  return { clientId, clientSecret, box };
}

/** The route of a table in Browse (namespace levels joined by the unit separator). */
const tableRoute = (catalog, levels, table) =>
  `#/browse/${encodeURIComponent(catalog)}/table/${encodeURIComponent(levels.join("\u001f"))}/${encodeURIComponent(table)}`;

export const steps = [
  [
    "access: create two principals; each secret is shown once and gone after",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Access");
      await ui.heading("Access").waitFor();
      const tabs = page.getByRole("navigation", { name: "Access sections" });
      await tabs.getByRole("link", { name: "Principals", exact: true }).click();
      const analyst = await createPrincipal(ui, "analyst");
      await ui.assertReadable("the one-time secret");
      await ui.screenshot("access-principal-secret.png");
      await page.getByRole("button", { name: "I have copied it" }).click();
      await analyst.box.waitFor({ state: "detached" });
      assert.equal(await page.getByText(analyst.clientSecret).count(), 0, "the secret is gone");
      c.state.analyst = analyst;
      const nobody = await createPrincipal(ui, "nobody");
      await page.getByRole("button", { name: "I have copied it" }).click();
      c.state.nobody = nobody;
      const names = (await ui.rows("Principals")).map((r) => r[0]);
      for (const n of ["analyst", "nobody"]) {
        assert.ok(names.includes(n), `${n} listed: ${names}`);
      }
      // The server refuses to delete root; nobody deletes themselves: neither is offered.
      await page.getByRole("button", { name: "Delete analyst" }).waitFor();
      const me = (await page.locator("header .who").innerText()).replace(/ \(service admin\)$/, "");
      for (const n of new Set(["root", me])) {
        assert.equal(await page.getByRole("button", { name: `Delete ${n}`, exact: true }).count(), 0, `no Delete ${n}`);
      }
      // Leaving the tab and coming back never shows a secret again.
      await tabs.getByRole("link", { name: "Principal roles" }).click();
      await tabs.getByRole("link", { name: "Principals", exact: true }).click();
      await page.getByRole("table", { name: "Principals" }).waitFor();
      assert.equal(await page.getByText(analyst.clientSecret).count(), 0);
    },
  ],
  [
    "access: a principal role for the analyst, holding a catalog role in quickstart",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      const tabs = page.getByRole("navigation", { name: "Access sections" });
      await tabs.getByRole("link", { name: "Principal roles" }).click();
      await page.getByLabel("Principal role name").fill("analysts");
      await page.getByRole("button", { name: "Create principal role" }).click();
      await page.getByRole("button", { name: "Catalog roles of analysts" }).waitFor();
      // service_admin cannot be deleted (the server refuses): not offered.
      await page.getByRole("button", { name: "Delete analysts" }).waitFor();
      assert.equal(await page.getByRole("button", { name: "Delete service_admin" }).count(), 0);

      await tabs.getByRole("link", { name: "Principals", exact: true }).click();
      await page.getByRole("button", { name: "Manage analyst" }).click();
      await page.getByLabel("Principal role to assign").selectOption("analysts");
      await page.getByRole("button", { name: "Assign role" }).click();
      await page.getByRole("button", { name: "Unassign analysts" }).waitFor();

      await tabs.getByRole("link", { name: "Catalog roles" }).click();
      await page.getByLabel("Catalog", { exact: true }).selectOption("quickstart");
      await page.getByLabel("Catalog role name").fill("readers");
      await page.getByRole("button", { name: "Create catalog role" }).click();
      await page.getByRole("button", { name: "Grants of readers" }).waitFor();

      await tabs.getByRole("link", { name: "Principal roles" }).click();
      await page.getByRole("button", { name: "Catalog roles of analysts" }).click();
      const assign = page.getByRole("form", { name: "Assign a catalog role of quickstart to analysts" });
      await assign.getByLabel("Catalog role of quickstart to assign").selectOption("readers");
      await assign.getByRole("button", { name: "Assign catalog role" }).click();
      await page.getByRole("button", { name: "Revoke readers in quickstart" }).waitFor();
    },
  ],
  [
    "the analyst, before any grant: sees quickstart only, and may not read its table",
    async (c) => {
      const ui = await c.open();
      c.state.analystUi = ui;
      await ui.signIn(c.state.analyst.clientId, c.state.analyst.clientSecret);
      const names = (await ui.rows("Catalogs you can see")).map((r) => r[0]);
      assert.deepEqual(names, ["quickstart"], "a role in quickstart only: lake is not listed");
      await ui.route(tableRoute("quickstart", ["sales"], "orders"));
      const alert = ui.page.getByRole("alert").first();
      await alert.waitFor();
      assert.match(await alert.innerText(), /Not permitted/);
      assert.equal(await ui.heading("Table sales.orders").count(), 1, "the page names the table");
      assert.equal(await ui.page.getByRole("table", { name: "Current schema" }).count(), 0);
    },
  ],
  [
    "root ticks TABLE_READ_DATA on sales.orders in the grants matrix",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      const tabs = page.getByRole("navigation", { name: "Access sections" });
      await tabs.getByRole("link", { name: "Catalog roles" }).click();
      await page.getByLabel("Catalog", { exact: true }).selectOption("quickstart");
      // Choosing the catalog changes the route; the list is drawn afresh under it.
      await page.waitForFunction(() => location.hash.endsWith("/catalog-roles/quickstart"));
      await page.getByRole("table", { name: "Catalog roles of quickstart" }).waitFor();
      await page.getByRole("button", { name: "Grants of readers", exact: true }).click();
      await ui.heading("Grants of readers in quickstart", 3).waitFor();
      // Who holds the role, revoked and granted again from here (as an access manager would).
      assert.deepEqual((await ui.rows("Principal roles holding readers")).map((r) => r[0]), ["analysts"]);
      await page.getByRole("button", { name: "Revoke readers from analysts" }).click();
      await page.getByText("Principal roles holding readers: none yet.").waitFor();
      const grantTo = page.getByRole("form", { name: "Grant readers to a principal role" });
      await grantTo.getByLabel("Principal role to grant it to").fill("analysts");
      await grantTo.getByRole("button", { name: "Grant to principal role" }).click();
      await page.getByRole("button", { name: "Revoke readers from analysts" }).waitFor();
      const add = page.getByRole("form", { name: "Add a securable row" });
      await add.getByLabel("Securable type").selectOption("table");
      await add.getByLabel("Namespace (a.b)").fill("sales");
      await add.getByLabel("Name", { exact: true }).fill("orders");
      await add.getByRole("button", { name: "Add row" }).click();
      const box = page.getByLabel("TABLE_READ_DATA on table sales.orders for role readers");
      await box.check();
      await ui.assertReadable("the grants matrix");
      await ui.screenshot("access-grants.png");
      // The server has it: the matrix drawn afresh from the API shows the box ticked.
      await page.getByRole("button", { name: "Close grants of readers", exact: true }).click();
      await page.getByRole("button", { name: "Grants of readers", exact: true }).click();
      await page.getByLabel("TABLE_READ_DATA on table sales.orders for role readers").waitFor();
      assert.ok(await page.getByLabel("TABLE_READ_DATA on table sales.orders for role readers").isChecked());
    },
  ],
  [
    "the analyst now reads the table; effective privileges explain why",
    async (c) => {
      const ui = c.state.analystUi;
      // Away and back: the table page loads afresh. Wait until it is away: a route set before
      // the click's navigation is drawn lands on the same table page, which keeps its old 403.
      await ui.section("Catalogs");
      await ui.heading("Catalogs").waitFor();
      await ui.route(tableRoute("quickstart", ["sales"], "orders"));
      await ui.page.getByRole("table", { name: "Current schema" }).waitFor();
      assert.equal(await ui.page.getByText("Not permitted").count(), 0);

      const root = c.state.root;
      const { page } = root;
      const tabs = page.getByRole("navigation", { name: "Access sections" });
      await tabs.getByRole("link", { name: "Effective privileges" }).click();
      const form = page.getByRole("form", { name: "Explain effective privileges" });
      await form.getByLabel("Catalog").selectOption("quickstart");
      await form.getByLabel("Principal").fill("analyst");
      await form.getByLabel("Securable type").selectOption("table");
      await form.getByLabel("Namespace", { exact: true }).fill("sales");
      await form.getByLabel("Name", { exact: true }).fill("orders");
      await form.getByRole("button", { name: "Explain" }).click();
      const rows = await root.rows("Effective privileges of analyst on table sales.orders in quickstart");
      const read = rows.find((r) => r[0] === "TABLE_READ_DATA");
      assert.ok(read, `TABLE_READ_DATA explained: ${JSON.stringify(rows)}`);
      assert.deepEqual(read.slice(1, 3), ["analysts", "readers"]);
      assert.match(read[3], /TABLE_READ_DATA/);
      await root.assertReadable("effective privileges");
      await root.screenshot("access-effective.png");
    },
  ],
  [
    "an unprivileged principal sees only its own things",
    async (c) => {
      const ui = await c.open();
      await ui.signIn(c.state.nobody.clientId, c.state.nobody.clientSecret);
      const { page } = ui;
      await page.getByText("Catalogs you can see: none visible to you.").waitFor();
      await ui.section("Browse");
      await page.getByText("No catalogs visible to you.").waitFor();
      await ui.section("Access");
      await ui.heading("Your principal: nobody", 2).waitFor();
      assert.equal(await page.getByRole("table", { name: "Principals" }).count(), 0);
      if (await hasActionsEndpoint(c)) {
        // The server says what it may do: Audit is not offered at all.
        const nav = page.getByRole("navigation", { name: "Sections" });
        assert.equal(await nav.getByRole("link", { name: "Audit events" }).count(), 0);
        assert.equal(await page.getByText("Not permitted").count(), 0);
        await ui.screenshot("unprivileged-access.png");
        return;
      }
      // A server without GET /actions: everything is shown, and the API's refusal reads plainly.
      await ui.section("Audit events");
      const alert = page.getByRole("alert").first();
      await alert.waitFor();
      assert.match(await alert.innerText(), /Not permitted[\s\S]*You may not read audit events/);
      await ui.assertReadable("a refusal");
      await ui.screenshot("unprivileged-audit.png");
    },
  ],
];
