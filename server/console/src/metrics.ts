// A small reader of the Prometheus text format (what /metrics answers): one sample per line,
// `name{label="value",...} number [timestamp]`; `#` lines (HELP, TYPE) and blank lines are skipped.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every sample of `text`; a line that does not parse is skipped rather than failing the page. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) {
      continue;
    }
    const sample = parseLine(line);
    if (sample) {
      samples.push(sample);
    }
  }
  return samples;
}

function parseLine(line: string): Sample | null {
  const nameEnd = line.search(/[{\s]/);
  if (nameEnd <= 0) {
    return null;
  }
  const name = line.slice(0, nameEnd);
  let labels: Record<string, string> = {};
  let rest = line.slice(nameEnd);
  if (rest.startsWith("{")) {
    const parsed = parseLabels(rest);
    if (!parsed) {
      return null;
    }
    labels = parsed.labels;
    rest = rest.slice(parsed.length);
  }
  const valueText = rest.trim().split(/\s+/)[0] ?? "";
  const value = parseValue(valueText);
  return value === null ? null : { name, labels, value };
}

/** `{a="x",b="y\"z"}` → labels and the characters read, or null when malformed. */
function parseLabels(text: string): { labels: Record<string, string>; length: number } | null {
  const labels: Record<string, string> = {};
  let i = 1; // after "{"
  while (i < text.length) {
    while (text[i] === " " || text[i] === ",") {
      i++;
    }
    if (text[i] === "}") {
      return { labels, length: i + 1 };
    }
    const eq = text.indexOf("=", i);
    if (eq < 0 || text[eq + 1] !== '"') {
      return null;
    }
    const key = text.slice(i, eq).trim();
    let value = "";
    let j = eq + 2;
    // Label values escape backslash, double quote and newline.
    while (j < text.length && text[j] !== '"') {
      if (text[j] === "\\" && j + 1 < text.length) {
        const next = text[j + 1];
        value += next === "n" ? "\n" : next;
        j += 2;
      } else {
        value += text[j];
        j++;
      }
    }
    if (j >= text.length) {
      return null;
    }
    labels[key] = value;
    i = j + 1;
  }
  return null;
}

function parseValue(text: string): number | null {
  switch (text) {
    case "NaN":
      return NaN;
    case "+Inf":
      return Infinity;
    case "-Inf":
      return -Infinity;
  }
  const n = Number(text);
  return text === "" || Number.isNaN(n) ? null : n;
}

/** Samples named `name` whose labels include every pair of `match`. */
export function select(
  samples: Sample[],
  name: string,
  match: Record<string, string> = {},
): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v),
  );
}

/** The sum of the matching samples, or undefined when there are none (the meter is absent). */
export function value(
  samples: Sample[],
  name: string,
  match: Record<string, string> = {},
): number | undefined {
  const found = select(samples, name, match);
  return found.length === 0 ? undefined : found.reduce((sum, s) => sum + s.value, 0);
}

/** The distinct values of `label` among samples whose name starts with `prefix`, sorted. */
export function labelValues(samples: Sample[], prefix: string, label: string): string[] {
  const seen = new Set<string>();
  for (const s of samples) {
    const v = s.labels[label];
    if (s.name.startsWith(prefix) && v !== undefined) {
      seen.add(v);
    }
  }
  return [...seen].sort();
}
