// The web console in a real browser: Debian's Chromium driven by playwright-core against a running
// Sluice (ConsoleBrowserTest starts it and seeds it). Each step asserts what a user sees; the run
// stops at the first failure with a screenshot of it. Screenshots of the main pages go to
// SLUICE_SCREENSHOTS (docs/console/ holds the committed ones).
//
// Environment: SLUICE_URL, SLUICE_ROOT_ID, SLUICE_ROOT_SECRET, SLUICE_SCREENSHOTS, and for the
// S3 catalog on the Ceph RGW test bed: SLUICE_S3_BUCKET, SLUICE_TEST_RGW_ENDPOINT,
// SLUICE_TEST_RGW_REGION, SLUICE_TEST_RGW_ROLE_ARN.
import assert from "node:assert/strict";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { steps as accessSteps } from "./console/access.mjs";
import { steps as catalogSteps } from "./console/catalogs.mjs";
import { steps as contentSteps } from "./console/content.mjs";
import { steps as pageSteps } from "./console/pages.mjs";
import { steps as reducedSteps } from "./console/reduced.mjs";
import { steps as storageFormSteps } from "./console/storage-forms.mjs";
import { Ui } from "./console/ui.mjs";

const env = (name) => {
  const value = process.env[name];
  assert.ok(value, `environment variable ${name} is not set`);
  return value;
};

const shots = env("SLUICE_SCREENSHOTS");
rmSync(shots, { recursive: true, force: true });
mkdirSync(shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  // As root, without a sandbox; no background traffic to hosts this machine cannot reach.
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

const context = {
  env,
  url: env("SLUICE_URL"),
  root: { id: env("SLUICE_ROOT_ID"), secret: env("SLUICE_ROOT_SECRET") },
  shot: (name) => join(shots, name),
  browser,
  // Values one step hands to later ones (a new principal's secret, say).
  state: {},
};

const all = [
  ...catalogSteps,
  ...storageFormSteps,
  ...pageSteps,
  ...contentSteps,
  ...accessSteps,
  ...reducedSteps,
];
let passed = 0;
const uis = [];
context.open = async (options) => {
  const ui = await Ui.open(context, options);
  uis.push(ui);
  return ui;
};
try {
  for (const [name, step] of all) {
    const started = Date.now();
    try {
      await step(context);
    } catch (e) {
      for (const [i, ui] of uis.entries()) {
        await ui.page.screenshot({ path: context.shot(`failure-${i}.png`), fullPage: true }).catch(() => {});
      }
      console.log(`console: FAILED step "${name}": ${e.stack ?? e}`);
      process.exitCode = 1;
      break;
    }
    passed++;
    console.log(`console: ok ${name} (${Date.now() - started} ms)`);
  }
  // Every page of every session: no script error, no Content-Security-Policy violation.
  for (const ui of uis) {
    assert.deepEqual(ui.problems, [], `browser problems in the session of ${ui.who}`);
    assert.deepEqual(await ui.cspViolations(), [], `CSP violations in the session of ${ui.who}`);
  }
} catch (e) {
  console.log(`console: FAILED: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
if (!process.exitCode) {
  console.log(`console: all ${passed} steps passed`);
}
