// One signed-in browser session of the console: its own context (the token is per page, in
// memory), with every script error and Content-Security-Policy violation collected.
import assert from "node:assert/strict";

export class Ui {
  static async open(context) {
    const browserContext = await context.browser.newContext({
      viewport: { width: 1280, height: 860 },
      reducedMotion: "reduce",
    });
    const page = await browserContext.newPage();
    const ui = new Ui(context, page);
    // Listeners run as page scripts would, but are injected by the driver (CSP does not apply).
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e) =>
        window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    page.on("pageerror", (e) => ui.problems.push(`page error: ${e}`));
    page.on("console", (m) => {
      // A refused API call is logged by the browser as a failed resource: that is the API
      // answering 4xx, which the page shows; everything else logged as an error is a problem.
      if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) {
        ui.problems.push(`console error: ${m.text()}`);
      }
    });
    page.setDefaultTimeout(20_000);
    return ui;
  }

  constructor(context, page) {
    this.context = context;
    this.page = page;
    this.problems = [];
    this.who = "(not signed in)";
  }

  async signIn(id, secret) {
    await this.page.goto(`${this.context.url}/ui/`);
    await this.page.getByLabel("Client id").fill(id);
    await this.page.getByLabel("Client secret").fill(secret);
    await this.page.getByRole("button", { name: "Sign in" }).click();
    await this.page.getByRole("navigation", { name: "Sections" }).waitFor();
    this.who = id;
  }

  /** Follows a link of the main navigation, as a user would. */
  async section(name) {
    await this.page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name }).click();
  }

  /** Goes to a route of the console without reloading (a reload would sign out). */
  async route(fragment) {
    await this.page.evaluate((f) => {
      location.hash = f;
    }, fragment);
  }

  heading(name, level = 1) {
    return this.page.getByRole("heading", { name, level, exact: true });
  }

  /** The server's complaint shown next to the field labelled `label`. */
  async fieldError(label) {
    const input = this.page.getByLabel(label, { exact: true });
    await input.waitFor();
    assert.equal(await input.getAttribute("aria-invalid"), "true", `${label} is marked invalid`);
    const ids = (await input.getAttribute("aria-describedby")) ?? "";
    const texts = [];
    for (const id of ids.split(/\s+/).filter(Boolean)) {
      texts.push(await this.page.locator(`[id="${id}"]`).innerText());
    }
    return texts.join(" ");
  }

  async cspViolations() {
    return this.page.evaluate(() => window.__cspViolations);
  }

  async screenshot(name) {
    await this.page.screenshot({ path: this.context.shot(name), fullPage: true });
  }

  /** Rows of the table captioned `caption`, as arrays of cell texts. */
  async rows(caption) {
    const table = this.page.locator("table", { has: this.page.locator("caption", { hasText: caption }) });
    await table.waitFor();
    return table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("td")).map((td) => td.innerText.trim())),
    );
  }
}
