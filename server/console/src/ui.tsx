// Small building blocks every page uses: routing by the URL's fragment, loading data with its
// error, and accessible tables, fields and messages.
import type { ComponentChildren } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "./api";
import { readableMessage } from "./messages";

/** The fragment's path segments, decoded: `#/browse/cat/ns` → ["browse", "cat", "ns"]. */
export function useRoute(): string[] {
  const [route, setRoute] = useState(parseHash());
  useEffect(() => {
    const update = () => setRoute(parseHash());
    window.addEventListener("hashchange", update);
    return () => window.removeEventListener("hashchange", update);
  }, []);
  return route;
}

function parseHash(): string[] {
  return location.hash
    .replace(/^#\/?/, "")
    .split("/")
    .filter((s) => s.length > 0)
    .map((s) => decodeURIComponent(s));
}

/** A fragment link from segments, each encoded. */
export function href(...segments: string[]): string {
  return "#/" + segments.map((s) => encodeURIComponent(s)).join("/");
}

export function go(...segments: string[]): void {
  location.hash = href(...segments);
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on reload), keeping its result or its error. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (e) => live && setState({ error: asApiError(e), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(0, "Error", String(e));
}

/** The server's answer when it refused or failed, announced to screen readers. */
export function ErrorBox({ error }: { error: ApiError | undefined }) {
  if (!error) {
    return null;
  }
  const heading =
    error.status === 403
      ? "Not permitted"
      : error.status === 404
        ? "Not found"
        : error.status === 409
          ? "Conflict"
        : error.status === 0
          ? "No answer"
          : `Error ${error.status}`;
  const readable = readableMessage(error.message);
  return (
    <div class="error" role="alert">
      <strong>{heading}</strong> <span class="error-type">{error.type}</span>
      <p>{readable}</p>
      {readable !== error.message ? (
        <details class="small">
          <summary>The server's message</summary>
          <code>{error.message}</code>
        </details>
      ) : null}
    </div>
  );
}

/** Data once loaded; a spinner-free "Loading…" before, the error instead on failure. */
export function Async<T>({
  loaded,
  children,
}: {
  loaded: Loaded<T>;
  children: (data: T) => ComponentChildren;
}) {
  if (loaded.error) {
    return <ErrorBox error={loaded.error} />;
  }
  if (loaded.data === undefined) {
    return (
      <p class="muted" aria-busy="true">
        Loading…
      </p>
    );
  }
  return <>{children(loaded.data)}</>;
}

export interface Column<T> {
  title: string;
  cell: (row: T) => ComponentChildren;
}

/** A table with a caption (its accessible name) and header cells; `empty` when no rows. */
export function DataTable<T>({
  caption,
  columns,
  rows,
  empty = "Nothing here.",
  rowClass,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  empty?: string;
  rowClass?: (row: T) => string | undefined;
}) {
  if (rows.length === 0) {
    return (
      <p class="muted">
        {caption}: {empty}
      </p>
    );
  }
  // The wrapper scrolls sideways on a narrow screen, so the page itself never does.
  return (
    <div class="table-wrap">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col">{c.title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr class={rowClass?.(row)}>
              {columns.map((c) => (
                <td>{c.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

let fieldIds = 0;

/** A labelled input, with the server's complaint about it right below (aria-describedby). */
export function Field({
  label,
  value,
  onInput,
  error,
  hint,
  type = "text",
  required = false,
  placeholder,
  multiline = false,
  name,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  error?: string;
  hint?: string;
  type?: string;
  required?: boolean;
  placeholder?: string;
  multiline?: boolean;
  name?: string;
}) {
  const [id] = useState(() => `field-${++fieldIds}`);
  const describedBy = [error ? `${id}-error` : "", hint ? `${id}-hint` : ""]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    name: name ?? label,
    value,
    required,
    "aria-required": required ? ("true" as const) : undefined,
    placeholder,
    "aria-invalid": error ? ("true" as const) : undefined,
    "aria-describedby": describedBy || undefined,
    onInput: (e: Event) => onInput((e.target as HTMLInputElement).value),
  };
  return (
    <div class={error ? "field invalid" : "field"}>
      <label for={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {multiline ? <textarea rows={3} {...common} /> : <input type={type} {...common} />}
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="field-error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div class="field checkbox">
      <label>
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
        />{" "}
        {label}
      </label>
    </div>
  );
}

export function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  const [id] = useState(() => `field-${++fieldIds}`);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
      >
        {options.map((o) => (
          <option value={o.value}>{o.label}</option>
        ))}
      </select>
    </div>
  );
}

/** "2026-12-05 13:04 UTC" (minutes; `seconds` adds them). Empty for no or a bad time. */
export function formatTime(millis: number | null | undefined, seconds = false): string {
  if (millis === null || millis === undefined || !Number.isFinite(millis)) {
    return "";
  }
  const iso = new Date(millis).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)} UTC`;
}

/** "3 min ago", "5 h ago", "in 2 d"; the date itself after a week. */
export function relativeTime(millis: number, now = Date.now()): string {
  const diff = now - millis;
  const abs = Math.abs(diff);
  const units: [number, string][] = [
    [86_400_000, "d"],
    [3_600_000, "h"],
    [60_000, "min"],
  ];
  if (abs < 45_000) {
    return "just now";
  }
  if (abs >= 7 * 86_400_000) {
    return formatTime(millis);
  }
  for (const [size, unit] of units) {
    if (abs >= size) {
      const n = Math.round(abs / size);
      return diff >= 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
    }
  }
  return formatTime(millis);
}

/** A time as people read it, the exact instant in the tooltip and the datetime attribute. */
export function Time({ millis }: { millis: number | null | undefined }) {
  if (millis === null || millis === undefined || !Number.isFinite(millis)) {
    return null;
  }
  return (
    <time dateTime={new Date(millis).toISOString()} title={formatTime(millis, true)}>
      {relativeTime(millis)}
    </time>
  );
}

/** Key/value pairs as a definition list. */
export function Properties({ values }: { values: Record<string, string> | undefined }) {
  const entries = Object.entries(values ?? {});
  if (entries.length === 0) {
    return <p class="muted">No properties.</p>;
  }
  return (
    <dl class="properties">
      {entries.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </>
      ))}
    </dl>
  );
}
