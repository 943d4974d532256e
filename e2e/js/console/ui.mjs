// One signed-in browser session of the console: its own context (the token is per page, in
// memory), with every script error and Content-Security-Policy violation collected.
import assert from "node:assert/strict";

export class Ui {
  static async open(context, { viewport = { width: 1280, height: 860 } } = {}) {
    const browserContext = await context.browser.newContext({
      viewport,
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
    // Every catalog API call of the console declines storage credentials.
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (
        url.pathname.startsWith("/api/catalog/v1/") &&
        !url.pathname.endsWith("/oauth/tokens") &&
        r.headers()["x-iceberg-access-delegation"] !== "none"
      ) {
        ui.problems.push(`catalog call without X-Iceberg-Access-Delegation: none: ${url.pathname}`);
      }
    });
    // Confirmations (delete, rotate) are accepted, as a user going ahead would; their questions
    // are kept for the steps to check.
    page.on("dialog", (d) => {
      ui.dialogs.push(d.message());
      d.accept();
    });
    page.setDefaultTimeout(20_000);
    return ui;
  }

  constructor(context, page) {
    this.context = context;
    this.page = page;
    this.problems = [];
    this.dialogs = [];
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

  /** The control labelled `label`, a required one's " *" aside. */
  field(label) {
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return this.page.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
  }

  /** The complaint shown next to the field labelled `label` (the server's or the form's). */
  async fieldError(label) {
    const input = this.field(label);
    await input.waitFor();
    assert.equal(await input.getAttribute("aria-invalid"), "true", `${label} is marked invalid`);
    const ids = (await input.getAttribute("aria-describedby")) ?? "";
    const texts = [];
    for (const id of ids.split(/\s+/).filter(Boolean)) {
      texts.push(await this.page.locator(`[id="${id}"]`).innerText());
    }
    return texts.join(" ");
  }

  /** Every text on the page as it is now meets WCAG AA contrast. */
  async assertReadable(where) {
    assert.deepEqual(await lowContrastTexts(this.page), [], `low-contrast text on ${where}`);
  }

  async cspViolations() {
    return this.page.evaluate(() => window.__cspViolations);
  }

  async screenshot(name) {
    await this.page.screenshot({ path: this.context.shot(name), fullPage: true });
  }

  /** Rows of the table captioned `caption`, as arrays of cell texts (row headers included). */
  async rows(caption) {
    const table = this.page.locator("table", { has: this.page.locator("caption", { hasText: caption }) });
    await table.waitFor();
    return table.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("th, td")).map((td) => td.innerText.trim())),
    );
  }
}

/**
 * WCAG AA contrast of every visible text on the page: 4.5:1, or 3:1 for large text (24 px, or
 * 18.66 px bold). The background is the nearest opaque one among the element and its ancestors;
 * disabled controls are exempt, as WCAG says.
 */
export async function lowContrastTexts(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const lum = ({ r, g, b }) => {
      const f = (v) => {
        v /= 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c && c.a >= 1) return c;
      }
      return { r: 255, g: 255, b: 255, a: 1 };
    };
    const bad = [];
    for (const el of document.querySelectorAll("body *")) {
      const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own || el.closest(":disabled") || el.closest("noscript")) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (style.visibility === "hidden" || box.width === 0 || box.height === 0) continue;
      const fg = parse(style.color);
      const bg = background(el);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) {
        bad.push(`${ratio.toFixed(2)}:1 "${el.textContent.trim().slice(0, 40)}" (${style.color} on rgb(${bg.r}, ${bg.g}, ${bg.b}))`);
      }
    }
    return bad;
  });
}
