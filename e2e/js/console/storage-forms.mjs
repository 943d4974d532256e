// The catalog form for R2, GCS and Azure. No such store exists here, and the test server's only
// credential source ("rgw") is a static key pair: the steps assert what the server really answers,
// the refusal shown at the field it names, or the created catalog.
import assert from "node:assert/strict";

/** Opens a fresh "New catalog" form with `type` chosen and the common fields filled. */
async function newCatalog(ui, { name, type, base, source }) {
  const { page } = ui;
  await ui.section("Catalogs");
  await page.getByRole("link", { name: "New catalog" }).click();
  await ui.heading("New catalog").waitFor();
  await page.getByLabel("Storage type").selectOption(type);
  await ui.field("Name").fill(name);
  await ui.field("Default base location").fill(base);
  await ui.field("Credential source").fill(source);
}

/** Submits, then waits for what the server answered: the created page or a complaint. */
async function submit(ui) {
  const { page } = ui;
  await page.getByRole("button", { name: "Create catalog" }).click();
  const created = page.getByRole("heading", { level: 1, name: /^Catalog .* created$/ });
  const refused = page.locator(".field-error, .error").first();
  await created.or(refused).waitFor({ timeout: 60_000 });
  return (await created.count()) > 0 ? "created" : "refused";
}

export const steps = [
  [
    "catalog form, R2: the server's field error at the account id, then the catalog created",
    async (c) => {
      const ui = c.state.root;
      const { page } = ui;
      await newCatalog(ui, { name: "r2lake", type: "R2", base: "s3://r2-bucket/lake", source: "rgw" });
      assert.equal(await ui.field("R2 endpoint").getAttribute("aria-required"), "true");
      // An endpoint that is not <account>.r2.cloudflarestorage.com needs the account id.
      await ui.field("R2 endpoint").fill("https://r2.example.invalid");
      assert.equal(await submit(ui), "refused");
      assert.match(await ui.fieldError("Cloudflare account id"), /accountId is required/);
      await ui.assertReadable("the R2 form with a field error");
      await ui.screenshot("catalog-r2-field-error.png");

      const account = "0123456789abcdef0123456789abcdef";
      await ui.field("Cloudflare account id").fill(account);
      await ui.field("R2 endpoint").fill(`https://${account}.r2.cloudflarestorage.com`);
      // Its self-check would call Cloudflare, which this machine cannot reach.
      await page.getByLabel("Run the storage self-check after creating").uncheck();
      const outcome = await submit(ui);
      if (outcome === "created") {
        await ui.heading("Catalog r2lake created").waitFor();
      } else {
        // A refusal is fine only as the server's, shown readably (never a blank form).
        const text = await page.locator(".field-error, .error").first().innerText();
        assert.ok(text.trim().length > 0, "the refusal says why");
      }
      console.log(`console:   R2 catalog with a static source: ${outcome}`);
    },
  ],
  [
    "catalog form, GCS: a static credential source is refused at its field",
    async (c) => {
      const ui = c.state.root;
      await newCatalog(ui, { name: "gcslake", type: "GCS", base: "gs://gcs-bucket/lake", source: "rgw" });
      await ui.field("Project id").fill("sluice-e2e-project");
      await ui.field("Service account to impersonate").fill("vendor@sluice-e2e-project.iam.gserviceaccount.com");
      assert.equal(await submit(ui), "refused");
      assert.match(await ui.fieldError("Credential source"), /credentialSource: 'rgw' is a static source; storageType GCS takes/);
      assert.equal(await ui.page.locator(".field-error").count(), 1, "one complaint, at its field");
    },
  ],
  [
    "catalog form, Azure: a static credential source is refused at its field",
    async (c) => {
      const ui = c.state.root;
      await newCatalog(ui, {
        name: "azlake",
        type: "AZURE",
        base: "abfss://lake@sluicee2e.dfs.core.windows.net/lake",
        source: "rgw",
      });
      await ui.field("Entra tenant id").fill("00000000-0000-0000-0000-000000000000");
      assert.equal(await submit(ui), "refused");
      assert.match(await ui.fieldError("Credential source"), /credentialSource: 'rgw' is a static source; storageType AZURE takes/);
      await ui.assertReadable("the Azure form with a field error");
      await ui.screenshot("catalog-azure-field-error.png");
    },
  ],
];
