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
await build({
  entryPoints: { app: "src/main.tsx" },
  bundle: true,
  minify: true,
  sourcemap: false,
  format: "esm",
  target: "es2022",
  jsx: "automatic",
  jsxImportSource: "preact",
  outdir: out,
  logLevel: "warning",
  legalComments: "none",
});
copyFileSync("static/index.html", join(out, "index.html"));
copyFileSync("static/app.css", join(out, "app.css"));
copyFileSync("static/favicon.svg", join(out, "favicon.svg"));
