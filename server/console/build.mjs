// Bundles the console into one script and one stylesheet, plus index.html, into the directory
// given as the first argument (the server's target/classes/console when Maven runs it).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const out = process.argv[2];
if (!out) {
  console.error("usage: node build.mjs OUTPUT_DIR");
  process.exit(2);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const common = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: "es2022",
  outdir: out,
  logLevel: "silent",
  legalComments: "none",
};
const results = [
  await build({
    ...common,
    entryPoints: { app: "src/main.tsx" },
    format: "esm",
    jsx: "automatic",
    jsxImportSource: "preact",
  }),
  // The stylesheet goes through esbuild's CSS parser too: a rule left open fails the build.
  await build({ ...common, entryPoints: { app: "static/app.css" } }),
];
const warnings = results.flatMap((r) => r.warnings);
if (warnings.length > 0) {
  for (const w of warnings) {
    console.error(`${w.location?.file}:${w.location?.line}: ${w.text}`);
  }
  process.exit(1);
}
copyFileSync("static/index.html", join(out, "index.html"));
copyFileSync("static/favicon.svg", join(out, "favicon.svg"));
