// What the caller may do in a catalog, asked of the server per page (`GET …/catalogs/{c}/actions`),
// so a page offers only the buttons and forms the caller can use.
import { Actions, listCatalogNames, loadCatalogActions, type ActionTarget } from "./api";
import { useLoad, type Loaded } from "./ui";

/**
 * The caller's operations on a catalog (or a namespace, table or view in it). A failed answer
 * counts as unknown: the page then shows everything and the API refuses what it refuses.
 */
export function useCatalogActions(catalog: string, target: ActionTarget = {}): Loaded<Actions> {
  const key = [catalog, (target.namespace ?? []).join("\u001f"), target.table ?? "", target.view ?? ""];
  return useLoad(() => loadCatalogActions(catalog, target).catch(() => Actions.UNKNOWN), key);
}

/**
 * The catalogs the caller can see on which it may take one of `ops` (every visible one when the
 * server does not say).
 */
export async function catalogsAllowing(...ops: string[]): Promise<string[]> {
  const catalogs = await listCatalogNames();
  const answers = await Promise.all(
    catalogs.map((c) => loadCatalogActions(c).catch(() => Actions.UNKNOWN)),
  );
  return catalogs.filter((_, i) => answers[i].hasSome(...ops));
}

