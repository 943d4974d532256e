// Changing a catalog's content from Browse: create a namespace (top level or child), drop an empty
// namespace, drop a table. Each is offered only when the server's actions say the caller may, and
// each shows the server's refusal right next to itself.
import { useState } from "preact/hooks";
import { ApiError } from "../../api";
import { createNamespace, dropNamespace, dropTable } from "../../iceberg";
import { ErrorBox, asApiError } from "../../ui";
import { nsName } from "./data";

/** A namespace under `parent` (the top level when empty), named in one field. */
export function CreateNamespaceForm({
  prefix,
  parent,
  onCreated,
}: {
  prefix: string;
  parent: string[];
  onCreated: (levels: string[]) => void;
}) {
  const [name, setName] = useState("");
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  const where = parent.length ? `in ${nsName(parent)}` : "at the top level";
  const id = `new-namespace-${parent.length ? "child" : "top"}`;
  return (
    <form
      class="inline-form"
      aria-label={`Create a namespace ${where}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const level = name.trim();
        if (!level) {
          setError(new ApiError(400, "Required", "Give the new namespace a name."));
          return;
        }
        setBusy(true);
        setError(undefined);
        try {
          const levels = [...parent, level];
          await createNamespace(prefix, { namespace: levels });
          setName("");
          onCreated(levels);
        } catch (err) {
          setError(asApiError(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="field">
        <label for={id}>
          New namespace {where}
          <span aria-hidden="true"> *</span>
        </label>
        <input
          id={id}
          value={name}
          required
          aria-required="true"
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create namespace"}
      </button>
      <ErrorBox error={error} />
    </form>
  );
}

/** A danger button with a confirmation, its error shown right after it. */
function DropButton({
  label,
  question,
  drop,
  explain,
}: {
  label: string;
  question: string;
  drop: () => Promise<void>;
  explain?: (error: ApiError) => ApiError;
}) {
  const [error, setError] = useState<ApiError | undefined>();
  const [busy, setBusy] = useState(false);
  return (
    <div class="drop">
      <button
        type="button"
        class="danger"
        disabled={busy}
        onClick={async () => {
          if (!confirm(question)) {
            return;
          }
          setBusy(true);
          setError(undefined);
          try {
            await drop();
          } catch (err) {
            const e = asApiError(err);
            setError(explain ? explain(e) : e);
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? "Dropping…" : label}
      </button>
      <ErrorBox error={error} />
    </div>
  );
}

export function DropNamespaceButton({
  prefix,
  levels,
  onDropped,
}: {
  prefix: string;
  levels: string[];
  onDropped: () => void;
}) {
  const name = nsName(levels);
  return (
    <DropButton
      label={`Drop namespace ${name}`}
      question={`Drop namespace ${name}? Only an empty namespace can be dropped.`}
      drop={async () => {
        await dropNamespace(prefix, levels);
        onDropped();
      }}
      explain={(e) =>
        e.status === 409
          ? new ApiError(
              409,
              e.type,
              `Namespace ${name} is not empty: drop its tables, views and child namespaces first.`,
            )
          : e
      }
    />
  );
}

export function DropTableButton({
  prefix,
  levels,
  name,
  onDropped,
}: {
  prefix: string;
  levels: string[];
  name: string;
  onDropped: () => void;
}) {
  const full = nsName([...levels, name]);
  return (
    <DropButton
      label={`Drop table ${full}`}
      question={`Drop table ${full}? Engines can no longer find it; its files stay where they are.`}
      drop={async () => {
        await dropTable(prefix, levels, name);
        onDropped();
      }}
    />
  );
}
