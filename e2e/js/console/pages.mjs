// Browse (the table and view ConsoleBrowserTest seeded), audit events and vending health, as the
// service admin.
import assert from "node:assert/strict";

export const steps = [
  [
    "browse: namespace tree, a table's schema, partitioning, snapshots with refs, metadata log",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Browse");
      await ui.heading("Browse").waitFor();
      await page
        .locator("table", { has: page.locator("caption", { hasText: "Catalogs to browse" }) })
        .getByRole("link", { name: "quickstart", exact: true })
        .click();
      await ui.heading("Catalog quickstart").waitFor();
      const tree = page.getByRole("navigation", { name: "Namespaces" });
      const toggle = tree.getByRole("button", { name: "Namespaces in sales", exact: true });
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      await tree.getByRole("link", { name: "eu", exact: true }).waitFor();
      await tree.getByRole("link", { name: "sales", exact: true }).click();
      await ui.heading("Namespace sales").waitFor();
      const tables = await ui.rows("Tables in sales");
      assert.deepEqual(tables.map((r) => r[0]), ["orders"]);
      await page.getByRole("link", { name: "orders", exact: true }).click();
      await ui.heading("Table sales.orders").waitFor();
      const fields = (await ui.rows("Current schema")).map((r) => r.join(" "));
      for (const name of ["id", "customer", "amount", "ordered_at", "lines"]) {
        assert.ok(fields.some((f) => f.includes(name)), `schema lists ${name}: ${fields}`);
      }
      assert.match((await ui.rows("Partition spec")).map((r) => r.join(" ")).join("\n"), /day/);
      const timeline = await page.getByRole("list", { name: "Snapshots, newest first" }).innerText();
      assert.match(timeline, /tag v1/);
      assert.match(timeline, /branch audit/);
      assert.equal((timeline.match(/Snapshot \d+/g) ?? []).length, 2, timeline);
      const log = await ui.rows("Metadata files, newest first");
      assert.ok(log.length >= 3, `metadata log rows: ${log.length}`);
      await ui.assertReadable("browse-table");
      await ui.screenshot("browse-table.png");
    },
  ],
  [
    "browse: a view's SQL and versions",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "sales" }).click();
      await ui.heading("Namespace sales").waitFor();
      await page.getByRole("link", { name: "big_orders", exact: true }).click();
      await ui.heading("View sales.big_orders").waitFor();
      const sql = await page.getByRole("figure", { name: "Dialect spark" }).innerText();
      assert.match(sql, /SELECT id, amount FROM orders WHERE amount > 1000/);
      assert.equal((await ui.rows("Versions, newest first")).length, 1);
      await ui.assertReadable("browse-view");
      await ui.screenshot("browse-view.png");
    },
  ],
  [
    "audit events: filtered by principal and decision, paged",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Audit events");
      await ui.heading("Audit events").waitFor();
      // The principal's name (the header shows it), not its client id.
      const me = (await page.locator("header .who").innerText()).replace(/ \(service admin\)$/, "");
      await page.getByLabel("Principal").fill(me);
      await page.getByLabel("Decision").selectOption("ALLOW");
      await page.getByLabel("Page size").fill("10");
      await page.getByRole("button", { name: "Apply filters" }).click();
      // The filtered page, once drawn: its table may stand empty a moment while it loads.
      await page
        .locator("table", { has: page.locator("caption", { hasText: "Audit events, page 1" }) })
        .locator("tbody tr")
        .nth(9)
        .waitFor();
      const rows = await ui.rows("Audit events, page 1");
      assert.equal(rows.length, 10);
      assert.ok(rows.every((r) => r[1] === me), `only ${me}'s events`);
      assert.ok(rows.every((r) => /allow/i.test(r[6])), "only allowed decisions");
      // Each decision's request outcome: the console's own calls were answered 200.
      assert.ok(
        rows.some((r) => /^200\b/.test(r[7])),
        `an outcome column with statuses: ${JSON.stringify(rows.map((r) => r[7]))}`,
      );
      await ui.assertReadable("audit");
      await ui.screenshot("audit.png");
      await page.getByRole("button", { name: "Next page" }).click();
      assert.equal((await ui.rows("Audit events, page 2")).length, 10);
    },
  ],
  [
    "vending health: the self-check's S3 vending is counted",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Vending health");
      await ui.heading("Vending health").waitFor();
      const rows = await ui.rows("Credential vending by storage backend");
      assert.ok(rows.some((r) => /s3/i.test(r[0])), `an s3 row: ${JSON.stringify(rows)}`);
      await page.getByRole("button", { name: "Refresh" }).click();
      await ui.assertReadable("health");
      await ui.screenshot("health.png");
    },
  ],
  [
    "API reference: operations by tag from the OpenAPI document, schemas unfolding into fields",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("API");
      await ui.heading("API reference").waitFor();
      const create = page.getByRole("article", { name: "POST /catalogs", exact: true });
      await create.waitFor();
      assert.match(await create.innerText(), /createCatalog/);
      assert.match(await create.innerText(), /Who may call it: the service admin/);
      // Grouped by tag: createCatalog sits under "Catalogs".
      const catalogs = page.getByRole("region", { name: "Catalogs", exact: true });
      await catalogs.getByRole("article", { name: "GET /catalogs/{name}", exact: true }).waitFor();
      // The answer's schema unfolds into its fields, storageConfigInfo among them.
      await create.locator("details.schema > summary", { hasText: /^Catalog\b/ }).first().click();
      const table = create.locator("table", { has: page.locator("caption", { hasText: "Fields of Catalog" }) });
      await table.first().waitFor();
      const fields = await table.first().locator("tbody tr").evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.innerText.trim())),
      );
      const storage = fields.find((r) => r[0] === "storageConfigInfo");
      assert.ok(storage, `Catalog lists storageConfigInfo: ${JSON.stringify(fields)}`);
      assert.match(storage[1], /StorageConfigInfo/);
      assert.match(storage[2], /^required/);
      // The raw document is one click away.
      const yaml = page.getByRole("link", { name: "Download openapi.yaml" });
      assert.equal(await yaml.getAttribute("href"), "/api/management/v1/openapi.yaml");
      const res = await page.request.get(`${c.url}/api/management/v1/openapi.yaml`);
      assert.equal(res.status(), 200);
      assert.match(await res.text(), /operationId: createCatalog/);
      await ui.assertReadable("api-reference");
      // The page's top only: the whole reference is many screens long.
      await page.screenshot({
        path: c.shot("api-reference.png"),
        fullPage: true,
        clip: { x: 0, y: 0, width: 1280, height: 1600 },
      });
    },
  ],
];
