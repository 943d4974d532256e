// Signing in, keyboard and labels, and catalogs: a validation error beside its field, then a
// catalog created on the Ceph RGW test bed with its storage self-check.
import assert from "node:assert/strict";
import { rootApi } from "./api.mjs";

export const steps = [
  [
    "sign-in refuses a wrong secret, then signs in with the right one",
    async (c) => {
      const ui = await c.open();
      c.state.root = ui;
      await ui.page.goto(`${c.url}/ui/`);
      await ui.page.getByLabel("Client id").fill(c.root.id);
      await ui.page.getByLabel("Client secret").fill("not-the-secret");
      await ui.page.getByRole("button", { name: "Sign in" }).click();
      const alert = ui.page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.innerText(), /wrong secret/);
      await ui.assertReadable("the sign-in page with its error");
      await ui.screenshot("login-refused.png");
      await ui.signIn(c.root.id, c.root.secret);
      assert.match(await ui.page.locator("header").innerText(), /\(service admin\)/);
    },
  ],
  [
    "keyboard: the first Tab reaches 'Skip to content', which moves focus to the page",
    async (c) => {
      const { page } = c.state.root;
      // Start where a freshly loaded page starts: before the first focusable element.
      await page.evaluate(() => {
        document.body.tabIndex = -1;
        document.body.focus();
        document.body.removeAttribute("tabindex");
      });
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content");
      await page.keyboard.press("Enter");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
    },
  ],
  [
    "create a catalog: the server's validation error appears beside its field, then success",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Catalogs");
      await page.getByRole("link", { name: "New catalog" }).click();
      await ui.heading("New catalog").waitFor();
      await assertEveryControlLabelled(page);
      const bucket = c.env("SLUICE_S3_BUCKET");
      await page.getByLabel("Storage type").selectOption("S3");
      // Required fields are marked before any submit; the self-check is on by default.
      for (const label of ["Name", "Default base location", "Credential source", "Region"]) {
        assert.equal(await ui.field(label).getAttribute("aria-required"), "true", `${label} required`);
      }
      assert.equal(await ui.field("Role ARN").getAttribute("aria-required"), null);
      assert.ok(await page.getByLabel("Run the storage self-check after creating").isChecked());
      // Nothing filled in: every missing field is named at once, at its field.
      await page.getByRole("button", { name: "Create catalog" }).click();
      await page.locator(".field-error").first().waitFor();
      assert.match(await ui.fieldError("Name"), /Name is required/);
      assert.match(await ui.fieldError("Default base location"), /is required/);
      assert.match(await ui.fieldError("Credential source"), /is required for storage type S3/);
      assert.match(await ui.fieldError("Region"), /Region is required for storage type S3/);
      await ui.assertReadable("the catalog form with its missing fields");
      await ui.screenshot("catalog-required-fields.png");

      await page.getByLabel(/^Name/).fill("lake");
      await page.getByLabel("Default base location").fill(`s3://${bucket}/lake`);
      await page.getByLabel("Credential source").fill("rgw");
      await page.getByLabel("Role ARN").fill(c.env("SLUICE_TEST_RGW_ROLE_ARN"));
      await page.getByLabel("S3 endpoint").fill(c.env("SLUICE_TEST_RGW_ENDPOINT"));
      await page.getByLabel("Path-style access").check();
      await page.getByLabel("Region").fill(c.env("SLUICE_TEST_RGW_REGION"));
      await page.getByLabel("Credential lifetime (s)").fill("100000");
      await page.getByRole("button", { name: "Create catalog" }).click();
      // Too long a lifetime (over 12 h): the server refuses, naming storageConfigInfo.durationSeconds, and the
      // form shows it at that field (not at another key the message mentions).
      await page.locator(".field-error").first().waitFor();
      assert.match(await ui.fieldError("Credential lifetime (s)"), /durationSeconds/);
      assert.equal(await page.locator(".field-error").count(), 1, "only the lifetime is refused");
      await ui.assertReadable("the catalog form with a field error");
      await ui.screenshot("catalog-validation-error.png");

      await page.getByLabel("Credential lifetime (s)").fill("900");
      await page.getByRole("button", { name: "Create catalog" }).click();
      await ui.heading("Catalog lake created").waitFor({ timeout: 120_000 });
      const verdict = await page.getByRole("status").first().innerText();
      assert.match(verdict, /Verdict for lake \(S3\): PASS/);
      const rows = await ui.rows("Self-check results");
      assert.ok(rows.length >= 8, `self-check rows: ${rows.length}`);
      // Every negative check that ran was refused by RGW itself (403 AccessDenied in the row).
      const refused = rows.filter((r) => r[1] === "refused" && r[3] !== "skipped");
      assert.ok(refused.length >= 10, `negative checks run: ${refused.length}`);
      assert.ok(
        refused.every((r) => r[3] === "pass" && /^403/.test(r[4])),
        `every refusal was the store's: ${JSON.stringify(refused)}`,
      );
      await ui.assertReadable("the self-check results");
      await ui.screenshot("catalog-created-verify.png");
    },
  ],
  [
    "the catalog list shows both catalogs; details show the storage and take an edit",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await ui.section("Catalogs");
      const names = (await ui.rows("Catalogs you can see")).map((r) => r[0]);
      assert.deepEqual(names.sort(), ["lake", "quickstart"]);
      await ui.screenshot("catalogs.png");
      // A key the form does not edit, set through the API: an edit in the console must keep it.
      const api = await rootApi(c);
      const before = await api("GET", "/catalogs/lake");
      const changed = await api("PUT", "/catalogs/lake", {
        currentEntityVersion: before.entityVersion,
        storageConfigInfo: { ...before.storageConfigInfo, vendCredentials: "on-request" },
      });
      assert.equal(changed.storageConfigInfo.vendCredentials, "on-request");
      await page.getByRole("link", { name: "lake", exact: true }).click();
      await ui.heading("lake").waitFor();
      await page.getByRole("button", { name: "Edit" }).click();
      await page.getByText("Also kept as they are").waitFor();
      // The storage type is fixed once the catalog exists: text, not a choice.
      assert.equal(await page.getByLabel("Storage type").count(), 0);
      assert.match(await page.locator(".storage-type").innerText(), /Storage type\s+S3/);
      await page.getByLabel("Other properties").fill("owner=data-platform");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("button", { name: "Edit" }).waitFor();
      await page.locator("dl.properties").first().getByText("data-platform").waitFor();
      assert.match(await page.locator("dl.properties").first().innerText(), /owner\s+data-platform/);
      const after = await api("GET", "/catalogs/lake");
      assert.equal(after.properties.owner, "data-platform");
      assert.deepEqual(after.storageConfigInfo, changed.storageConfigInfo, "the storage is unchanged");
    },
  ],
];

/** Every input, select and textarea on the page has an accessible name from a label. */
async function assertEveryControlLabelled(page) {
  const unlabelled = await page.evaluate(() =>
    Array.from(document.querySelectorAll("input, select, textarea"))
      .filter((el) => el.labels.length === 0 && !el.getAttribute("aria-label"))
      .map((el) => el.outerHTML),
  );
  assert.deepEqual(unlabelled, [], "controls without a label");
}
export { assertEveryControlLabelled };
