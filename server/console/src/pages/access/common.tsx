// What the Access tabs share: the privilege list (as in the server's authz/Privilege), securables
// as the grant API spells them, and a button that runs an API call and shows its error.
import { useState } from "preact/hooks";
import { ApiError, type Schemas } from "../../api";
import { ErrorBox, asApiError } from "../../ui";

export type SecurableType = Schemas["Grant"]["type"];
/** A privilege, as the OpenAPI document enumerates them. */
export type Privilege = Schemas["Grant"]["privilege"];

/** The privileges of authz/Privilege, in its order, by the securable kind they concern. */
export const PRIVILEGES: Record<SecurableType, Privilege[]> = {
  catalog: [
    "CATALOG_MANAGE_ACCESS",
    "CATALOG_MANAGE_CONTENT",
    "CATALOG_MANAGE_METADATA",
    "CATALOG_READ_PROPERTIES",
    "CATALOG_WRITE_PROPERTIES",
  ],
  namespace: [
    "NAMESPACE_CREATE",
    "NAMESPACE_DROP",
    "NAMESPACE_LIST",
    "NAMESPACE_READ_PROPERTIES",
    "NAMESPACE_WRITE_PROPERTIES",
    "NAMESPACE_FULL_METADATA",
  ],
  table: [
    "TABLE_CREATE",
    "TABLE_DROP",
    "TABLE_LIST",
    "TABLE_READ_PROPERTIES",
    "TABLE_WRITE_PROPERTIES",
    "TABLE_READ_DATA",
    "TABLE_WRITE_DATA",
    "TABLE_FULL_METADATA",
  ],
  view: [
    "VIEW_CREATE",
    "VIEW_DROP",
    "VIEW_LIST",
    "VIEW_READ_PROPERTIES",
    "VIEW_WRITE_PROPERTIES",
    "VIEW_FULL_METADATA",
  ],
};

const ALL = [...PRIVILEGES.catalog, ...PRIVILEGES.namespace, ...PRIVILEGES.table, ...PRIVILEGES.view];

/**
 * The privileges that make sense as a grant on a securable: a grant on a catalog or namespace
 * reaches everything below, so those rows offer the privileges of what lies below too.
 */
export function privilegesFor(type: SecurableType): Privilege[] {
  switch (type) {
    case "catalog":
      return ALL;
    case "namespace":
      return [...PRIVILEGES.namespace, ...PRIVILEGES.table, ...PRIVILEGES.view];
    default:
      return PRIVILEGES[type];
  }
}

export interface Securable {
  type: SecurableType;
  namespace: string[];
  name: string;
}

/** A stable key and the human label ("table ns.t", "catalog"). */
export function securableKey(s: Securable): string {
  return [s.type, s.namespace.join("\u001f"), s.name].join("\u001e");
}

export function securableLabel(s: Securable): string {
  if (s.type === "catalog") {
    return "catalog";
  }
  const ns = s.namespace.join(".");
  return s.type === "namespace" ? `namespace ${ns}` : `${s.type} ${ns}.${s.name}`;
}

export function securableOfGrant(g: Schemas["Grant"]): Securable {
  return {
    type: g.type,
    namespace: g.namespace ?? [],
    name: String(g.tableName ?? g.viewName ?? ""),
  };
}

/** The grant API's body for a privilege on a securable. */
export function grantBody(s: Securable, privilege: Privilege): Schemas["GrantRequest"] {
  const grant: Schemas["Grant"] = { type: s.type, privilege };
  if (s.type !== "catalog") {
    grant.namespace = s.namespace;
  }
  if (s.type === "table") {
    grant.tableName = s.name;
  } else if (s.type === "view") {
    grant.viewName = s.name;
  }
  return { grant };
}

/** "a.b" (or "a␟b") → ["a", "b"]. */
export function parseNamespace(text: string): string[] {
  return text
    .split(/[.\u001f]/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** A button that runs `action`, disabled while it runs, with the server's error after it. */
export function ActionButton({
  label,
  action,
  danger = false,
  confirmText,
}: {
  label: string;
  action: () => Promise<void>;
  danger?: boolean;
  confirmText?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  return (
    <>
      <button
        type="button"
        class={danger ? "danger" : "secondary"}
        disabled={busy}
        onClick={async () => {
          if (confirmText && !confirm(confirmText)) {
            return;
          }
          setBusy(true);
          setError(undefined);
          try {
            await action();
          } catch (e) {
            setError(asApiError(e));
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </button>
      <ErrorBox error={error} />
    </>
  );
}

/** A one-field form ("New principal role" → name) that creates something. */
export function CreateForm({
  title,
  label,
  submitLabel,
  create,
}: {
  title: string;
  label: string;
  submitLabel: string;
  create: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState("");
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <form
      aria-label={title}
      class="inline-form"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(undefined);
        try {
          await create(name.trim());
          setName("");
        } catch (err) {
          setError(asApiError(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="field">
        <label for={`create-${label.replace(/\W+/g, "-")}`}>{label}</label>
        <input
          id={`create-${label.replace(/\W+/g, "-")}`}
          value={name}
          required
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </div>
      <button type="submit" disabled={busy}>
        {submitLabel}
      </button>
      <ErrorBox error={error} />
    </form>
  );
}
