// The namespace tree: each level loads its children when expanded (GET namespaces?parent=…); the
// ancestors of the selection open by themselves, so a deep link shows where it is.
import { useEffect, useState } from "preact/hooks";
import { Async, useLoad } from "../../ui";
import { links, listNamespaces, nsKey, nsName } from "./data";

interface TreeProps {
  catalog: string;
  prefix: string;
  /** The selected namespace (or the one holding the selected table or view). */
  selected: string[] | null;
  /** Changes after a create or drop: every open level loads afresh. */
  version: number;
}

export function NamespaceTree({ catalog, prefix, selected, version }: TreeProps) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const selectedKey = selected ? nsKey(selected) : "";
  useEffect(() => {
    if (!selected || selected.length < 2) {
      return;
    }
    setExpanded((old) => {
      const next = new Set(old);
      for (let i = 1; i < selected.length; i++) {
        next.add(nsKey(selected.slice(0, i)));
      }
      return next;
    });
  }, [selectedKey]);
  const toggle = (key: string) =>
    setExpanded((old) => {
      const next = new Set(old);
      if (!next.delete(key)) {
        next.add(key);
      }
      return next;
    });
  return (
    <nav class="tree" aria-labelledby="tree-title">
      <h2 id="tree-title">Namespaces</h2>
      <Level
        parent={[]}
        tree={{ catalog, prefix, selectedKey, expanded, toggle, version }}
      />
    </nav>
  );
}

interface TreeState {
  catalog: string;
  prefix: string;
  selectedKey: string;
  expanded: Set<string>;
  toggle: (key: string) => void;
  version: number;
}

function Level({ parent, tree }: { parent: string[]; tree: TreeState }) {
  const children = useLoad(() => listNamespaces(tree.prefix, parent), [tree.prefix, nsKey(parent), tree.version]);
  return (
    <Async loaded={children}>
      {(list: string[][]) =>
        list.length === 0 ? (
          <p class="muted small">{parent.length ? "No child namespaces." : "No namespaces."}</p>
        ) : (
          <ul id={listId(parent)}>
            {list.map((levels) => (
              <Node levels={levels} tree={tree} />
            ))}
          </ul>
        )
      }
    </Async>
  );
}

function Node({ levels, tree }: { levels: string[]; tree: TreeState }) {
  const key = nsKey(levels);
  const open = tree.expanded.has(key);
  const name = levels[levels.length - 1];
  return (
    <li>
      <button
        type="button"
        class="toggle"
        aria-expanded={open ? "true" : "false"}
        aria-controls={open ? listId(levels) : undefined}
        aria-label={`Namespaces in ${nsName(levels)}`}
        onClick={() => tree.toggle(key)}
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span>
      </button>{" "}
      <a
        href={links.namespace(tree.catalog, levels)}
        aria-current={tree.selectedKey === key ? "page" : undefined}
      >
        {name}
      </a>
      {open ? <Level parent={levels} tree={tree} /> : null}
    </li>
  );
}

/** The id of the list holding a namespace's children (the button controls it). */
function listId(levels: string[]): string {
  return `tree-${encodeURIComponent(nsKey(levels)) || "root"}`;
}
