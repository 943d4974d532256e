// Changing content from Browse, as the service admin: namespaces created at the top level and
// as a child, a non-empty namespace refused (409, shown next to the button), a table dropped after
// its confirmation, and the empty namespaces dropped.
import assert from "node:assert/strict";
import { rootCatalogApi } from "./api.mjs";

export const steps = [
  [
    "browse: create a top-level namespace and a child namespace",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.route("#/browse/quickstart");
      await ui.heading("Catalog quickstart").waitFor();
      const top = page.getByRole("form", { name: "Create a namespace at the top level" });
      await top.getByLabel(/New namespace at the top level/).fill("scratch");
      await top.getByRole("button", { name: "Create namespace" }).click();
      const tree = page.getByRole("navigation", { name: "Namespaces" });
      await tree.getByRole("link", { name: "scratch", exact: true }).click();
      await ui.heading("Namespace scratch").waitFor();
      const child = page.getByRole("form", { name: "Create a namespace in scratch" });
      await child.getByLabel(/New namespace in scratch/).fill("tmp");
      await child.getByRole("button", { name: "Create namespace" }).click();
      await page.getByRole("table", { name: "Namespaces in scratch" }).getByRole("link", { name: "scratch.tmp" }).waitFor();
      await tree.getByRole("button", { name: "Namespaces in scratch", exact: true }).click();
      await tree.getByRole("link", { name: "tmp", exact: true }).waitFor();
    },
  ],
  [
    "browse: a non-empty namespace is not dropped (409 beside the button); a table is, after a confirmation",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      // A table to drop, made through Iceberg's REST API (the console does not create tables).
      const api = await rootCatalogApi(c);
      const config = await api("GET", "/config?warehouse=quickstart");
      const prefix = encodeURIComponent(config.overrides?.prefix ?? "quickstart");
      await api("POST", `/${prefix}/namespaces/scratch/tables`, {
        name: "doomed",
        schema: { type: "struct", "schema-id": 0, fields: [{ id: 1, name: "id", type: "long", required: true }] },
      });
      await ui.route("#/browse/quickstart");
      await ui.heading("Catalog quickstart").waitFor();
      await ui.route("#/browse/quickstart/namespace/scratch");
      await ui.heading("Namespace scratch").waitFor();
      assert.deepEqual((await ui.rows("Tables in scratch")).map((r) => r[0]), ["doomed"]);

      await page.getByRole("button", { name: "Drop namespace scratch" }).click();
      const refusal = page.locator(".drop").getByRole("alert");
      await refusal.waitFor();
      assert.match(await refusal.innerText(), /Conflict[\s\S]*Namespace scratch is not empty/);
      assert.match(ui.dialogs.at(-1), /Drop namespace scratch\?/);
      await ui.assertReadable("a refused drop");
      await ui.screenshot("browse-namespace-not-empty.png");

      await page.getByRole("link", { name: "doomed", exact: true }).click();
      await ui.heading("Table scratch.doomed").waitFor();
      await page.getByRole("button", { name: "Drop table scratch.doomed" }).click();
      await ui.heading("Namespace scratch").waitFor();
      assert.match(ui.dialogs.at(-1), /Drop table scratch\.doomed\?/);
      await page.getByText("No tables.").waitFor();
    },
  ],
  [
    "browse: drop the empty namespaces, child first",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await page.getByRole("table", { name: "Namespaces in scratch" }).getByRole("link", { name: "scratch.tmp" }).click();
      await ui.heading("Namespace scratch.tmp").waitFor();
      await page.getByRole("button", { name: "Drop namespace scratch.tmp" }).click();
      await ui.heading("Namespace scratch").waitFor();
      await page.getByText("No child namespaces.").first().waitFor();
      await page.getByRole("button", { name: "Drop namespace scratch" }).click();
      await ui.heading("Catalog quickstart").waitFor();
      const tree = page.getByRole("navigation", { name: "Namespaces" });
      await tree.getByRole("link", { name: "sales", exact: true }).waitFor();
      // The tree keeps its old list on screen until the new one arrives.
      await tree.getByRole("link", { name: "scratch", exact: true }).waitFor({ state: "detached" });
    },
  ],
];
