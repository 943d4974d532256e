// The catalog form: the fields common to every catalog, then the storage type's own keys, which
// the server's backends declare (GET /api/management/v1/storage-types; docs/S3-VENDING.md, …). The server validates;
// its message names the key it refused, and the form shows it next to that field. Required fields
// are checked here first, all at once, so one submit shows every missing one.
import { useState } from "preact/hooks";
import { ApiError, listStorageTypes, type Schemas } from "../api";
import { Checkbox, ErrorBox, Field, Select, asApiError } from "../ui";

interface StorageKey {
  key: string;
  label: string;
  hint?: string;
  kind?: "text" | "number" | "boolean" | "list";
  /** A definition without it is refused (the server's storage-types says so). */
  required: boolean;
}

/** Each storage type's own keys, as the server's backends declare them (by storage type). */
export type StorageKeys = Record<string, StorageKey[]>;

let storageKeys: Promise<StorageKeys> | undefined;

/** The storage types whose catalogs must name a credential source (storage-types says which). */
const credentialSourceTypes = new Set<string>();

/**
 * The storage types this server has and each one's form keys (`GET /storage-types`), read once:
 * a backend added to the server shows here without a console change.
 */
export function loadStorageKeys(): Promise<StorageKeys> {
  storageKeys ??= listStorageTypes().then((answer) => {
    const out: StorageKeys = {};
    for (const t of answer.storageTypes ?? []) {
      out[t.storageType ?? ""] = (t.fields ?? []).map(storageKeyOf);
      if (t.credentialSource) {
        credentialSourceTypes.add(t.storageType ?? "");
      }
    }
    return out;
  });
  storageKeys.catch(() => (storageKeys = undefined)); // a failed read is tried again next time
  return storageKeys;
}

/** A form field as the server declares it. */
function storageKeyOf(field: Schemas["FormField"]): StorageKey {
  const key = field.key ?? "";
  return { key, label: field.label ?? key, hint: field.hint, kind: field.kind, required: field.required };
}

const BASE_LOCATION = "default-base-location";

/** What the form edits, as strings (the inputs' own values). */
export interface CatalogDraft {
  name: string;
  storageType: string;
  baseLocation: string;
  allowedLocations: string;
  credentialSource: string;
  storage: Record<string, string>;
  /**
   * The catalog's other storageConfigInfo keys (policy templates, session tags, vendCredentials,
   * …), which the form does not edit: sent back as they were, so an edit never drops them.
   */
  kept: Record<string, unknown>;
  properties: string;
}

export function emptyDraft(): CatalogDraft {
  return {
    name: "",
    storageType: "FILE",
    baseLocation: "",
    allowedLocations: "",
    credentialSource: "",
    storage: {},
    kept: {},
    properties: "",
  };
}

/** A catalog as the management API answers it, as a draft to edit. */
export function draftOf(catalog: Schemas["Catalog"], keys: StorageKeys): CatalogDraft {
  // Read by key, whatever the storage type: the form's keys come from the server at run time.
  const info: Record<string, unknown> = { ...catalog.storageConfigInfo };
  const storageType = catalog.storageConfigInfo?.storageType ?? "FILE";
  const storage: Record<string, string> = {};
  for (const k of keys[storageType] ?? []) {
    const v = info[k.key];
    if (v !== undefined && v !== null) {
      storage[k.key] = Array.isArray(v) ? v.join(", ") : String(v);
    }
  }
  const edited = new Set([
    "storageType",
    "allowedLocations",
    "credentialSource",
    ...(keys[storageType] ?? []).map((k) => k.key),
  ]);
  const kept = Object.fromEntries(Object.entries(info).filter(([k]) => !edited.has(k)));
  const props = { ...(catalog.properties ?? {}) };
  const base = props[BASE_LOCATION] ?? "";
  delete props[BASE_LOCATION];
  return {
    name: catalog.name,
    storageType,
    baseLocation: base,
    allowedLocations: (catalog.storageConfigInfo?.allowedLocations ?? []).join("\n"),
    credentialSource: typeof info.credentialSource === "string" ? info.credentialSource : "",
    storage,
    kept,
    properties: Object.entries(props)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n"),
  };
}

export function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed) {
      continue;
    }
    const eq = trimmed.indexOf("=");
    if (eq <= 0) {
      throw new ApiError(400, "BadProperty", `Invalid property line: ${trimmed} (key=value)`);
    }
    out[trimmed.slice(0, eq).trim()] = trimmed.slice(eq + 1).trim();
  }
  return out;
}

/** The draft as the management API's catalog properties and storageConfigInfo. */
export function requestOf(
  draft: CatalogDraft,
  keys: StorageKeys,
): { properties: Record<string, string>; storageConfigInfo: Schemas["StorageConfigInfo"] } {
  const properties = parseProperties(draft.properties);
  if (draft.baseLocation.trim()) {
    properties[BASE_LOCATION] = draft.baseLocation.trim();
  }
  // Built by key from the server's form fields; the server checks it against the document.
  const info: Record<string, unknown> = { ...draft.kept, storageType: draft.storageType };
  const allowed = draft.allowedLocations
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
  if (allowed.length) {
    info.allowedLocations = allowed;
  }
  if (draft.credentialSource.trim()) {
    info.credentialSource = draft.credentialSource.trim();
  }
  for (const k of keys[draft.storageType] ?? []) {
    const raw = (draft.storage[k.key] ?? "").trim();
    if (!raw) {
      continue;
    }
    if (k.kind === "boolean") {
      info[k.key] = raw === "true";
    } else if (k.kind === "number") {
      info[k.key] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    } else if (k.kind === "list") {
      info[k.key] = raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    } else {
      info[k.key] = raw;
    }
  }
  return { properties, storageConfigInfo: info as Schemas["StorageConfigInfo"] };
}

/** True when catalogs of this storage type name a credential source of the server's config. */
export function takesCredentialSource(storageType: string): boolean {
  return credentialSourceTypes.has(storageType);
}

/** The keys the form requires before it sends anything. */
export function requiredKeys(draft: CatalogDraft, keys: StorageKeys, creating: boolean): string[] {
  const out = creating ? ["name"] : [];
  out.push(BASE_LOCATION);
  // What the server's storage-types marks required; the server's parse stays the judge.
  if (takesCredentialSource(draft.storageType)) {
    out.push("credentialSource");
  }
  for (const k of keys[draft.storageType] ?? []) {
    if (k.required) {
      out.push(k.key);
    }
  }
  return out;
}

function valueOf(draft: CatalogDraft, key: string): string {
  switch (key) {
    case "name":
      return draft.name;
    case BASE_LOCATION:
      return draft.baseLocation;
    case "credentialSource":
      return draft.credentialSource;
    default:
      return draft.storage[key] ?? "";
  }
}

/** Every required field left empty, with its complaint. */
export function missingFields(
  draft: CatalogDraft,
  keys: StorageKeys,
  creating: boolean,
): Record<string, string> {
  const labels: Record<string, string> = {
    name: "Name",
    [BASE_LOCATION]: "Default base location",
    credentialSource: "Credential source",
  };
  for (const k of keys[draft.storageType] ?? []) {
    labels[k.key] = k.label;
  }
  const out: Record<string, string> = {};
  for (const key of requiredKeys(draft, keys, creating)) {
    if (!valueOf(draft, key).trim()) {
      out[key] = `${labels[key] ?? key} is required${key === "name" || key === BASE_LOCATION ? "" : ` for storage type ${draft.storageType}`}.`;
    }
  }
  return out;
}

/**
 * The field an error message is about. The server names a storage key as
 * `storageConfigInfo.<key>` and a property as `properties.<key>`: that wins. Otherwise the key the
 * message names first.
 */
export function fieldOf(message: string, keys: string[]): string | undefined {
  for (const m of message.matchAll(/\b(?:storageConfigInfo|properties)\.([A-Za-z0-9_-]+)/g)) {
    if (keys.includes(m[1])) {
      return m[1];
    }
  }
  // "name" also occurs in prose ("sessionName must name …"): only these messages are about it.
  if (keys.includes("name") && /field: name\b|catalog name|Catalog already exists/.test(message)) {
    return "name";
  }
  let best: string | undefined;
  let bestAt = Infinity;
  for (const key of keys.filter((k) => k !== "name")) {
    const pattern = new RegExp(`(^|[^A-Za-z0-9-])${key.replace(/[.]/g, "\\.")}($|[^A-Za-z0-9-])`);
    const found = pattern.exec(message);
    if (found && found.index < bestAt) {
      best = key;
      bestAt = found.index;
    }
  }
  return best;
}

function errorKeys(draft: CatalogDraft, keys: StorageKeys): string[] {
  return [
    "name",
    BASE_LOCATION,
    "storageType",
    "allowedLocations",
    "credentialSource",
    ...(keys[draft.storageType] ?? []).map((k) => k.key),
  ];
}

/**
 * The form. `submit` sends the draft; an ApiError it throws is shown next to the field its
 * message names, or above the buttons when it names none. On edit the storage type is fixed (the
 * server refuses to change it).
 */
export function CatalogForm({
  initial,
  storageKeys: keys,
  creating,
  storageEditable,
  submitLabel,
  submit,
  onCancel,
}: {
  initial: CatalogDraft;
  storageKeys: StorageKeys;
  creating: boolean;
  storageEditable: boolean;
  submitLabel: string;
  submit: (draft: CatalogDraft, verify: boolean) => Promise<void>;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  // The self-check costs a few seconds and catches a mis-scoped role before anyone relies on it.
  const [verify, setVerify] = useState(creating);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const required = new Set(requiredKeys(draft, keys, creating));
  const set = (change: Partial<CatalogDraft>) => setDraft({ ...draft, ...change });

  async function onSubmit(e: Event) {
    e.preventDefault();
    setGeneral(undefined);
    const missing = missingFields(draft, keys, creating);
    setFieldErrors(missing);
    if (Object.keys(missing).length > 0) {
      return;
    }
    setBusy(true);
    try {
      await submit(draft, verify);
    } catch (err) {
      const error = asApiError(err);
      const field =
        error.type === "BadProperty" ? "properties" : fieldOf(error.message, errorKeys(draft, keys));
      if (field) {
        setFieldErrors({ [field]: error.message });
      } else {
        setGeneral(error);
      }
    } finally {
      setBusy(false);
    }
  }

  const count = Object.keys(fieldErrors).length;
  return (
    // noValidate: the browser would stop at its first empty field; this form shows them all.
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={creating ? "New catalog" : `Edit catalog ${draft.name}`}
    >
      <p class="muted small">Fields marked * are required.</p>
      {creating ? (
        <Field
          label="Name"
          name="name"
          value={draft.name}
          onInput={(v) => set({ name: v })}
          required
          error={fieldErrors.name}
        />
      ) : null}
      <Field
        label="Default base location"
        name={BASE_LOCATION}
        value={draft.baseLocation}
        onInput={(v) => set({ baseLocation: v })}
        required
        hint="where new namespaces and tables go, e.g. s3://bucket/warehouse/ or file:///data/wh"
        error={fieldErrors[BASE_LOCATION]}
      />
      <fieldset disabled={!storageEditable}>
        <legend>Storage{storageEditable ? "" : " (only the service admin may change it)"}</legend>
        {creating ? (
          <Select
            label="Storage type"
            value={draft.storageType}
            options={Object.keys(keys).map((t) => ({ value: t, label: t }))}
            onChange={(v) => {
              set({ storageType: v, storage: {}, kept: {} });
              setFieldErrors({});
            }}
          />
        ) : (
          <p class="storage-type">
            <strong>Storage type</strong> {draft.storageType}{" "}
            <span class="muted small">(fixed once the catalog exists)</span>
          </p>
        )}
        {fieldErrors.storageType ? (
          <small class="field-error" role="alert">
            {fieldErrors.storageType}
          </small>
        ) : null}
        <Field
          label="Allowed locations"
          name="allowedLocations"
          multiline
          value={draft.allowedLocations}
          onInput={(v) => set({ allowedLocations: v })}
          hint="one per line; empty: the base location"
          error={fieldErrors.allowedLocations}
        />
        {takesCredentialSource(draft.storageType) ? (
          <Field
            label="Credential source"
            name="credentialSource"
            value={draft.credentialSource}
            onInput={(v) => set({ credentialSource: v })}
            required
            hint="a name under storage.credentialSources in the server's YAML"
            error={fieldErrors.credentialSource}
          />
        ) : null}
        {(keys[draft.storageType] ?? []).map((k) =>
          k.kind === "boolean" ? (
            <Checkbox
              label={k.label}
              checked={draft.storage[k.key] === "true"}
              onChange={(c) => set({ storage: { ...draft.storage, [k.key]: String(c) } })}
            />
          ) : (
            <Field
              label={k.label}
              name={k.key}
              value={draft.storage[k.key] ?? ""}
              hint={k.hint}
              type={k.kind === "number" ? "number" : "text"}
              required={required.has(k.key)}
              onInput={(v) => set({ storage: { ...draft.storage, [k.key]: v } })}
              error={fieldErrors[k.key]}
            />
          ),
        )}
        {Object.keys(draft.kept).length > 0 ? (
          <p class="muted small">
            Also kept as they are (change them through the API or the CLI):{" "}
            {Object.keys(draft.kept).join(", ")}.
          </p>
        ) : null}
      </fieldset>
      <Field
        label="Other properties"
        name="properties"
        multiline
        value={draft.properties}
        onInput={(v) => set({ properties: v })}
        hint="one key=value per line"
        error={fieldErrors.properties}
      />
      {creating && draft.storageType !== "FILE" ? (
        <Checkbox
          label="Run the storage self-check after creating"
          checked={verify}
          onChange={setVerify}
        />
      ) : null}
      {count > 1 ? (
        <p class="form-summary">{count} fields need attention: see the messages at each.</p>
      ) : null}
      <ErrorBox error={general} />
      <div class="buttons">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" class="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
