// The catalog API calls Browse makes, and how a namespace travels in the console's own routes.
import { all, catalogGet, type PageQuery, catalogGetExact, nsPath, seg } from "../../api";
import type {
  CatalogConfig,
  GetNamespaceResponse,
  ListIdentifiersResponse,
  ListNamespacesResponse,
  LoadResult,
  Loaded as LoadedEntity,
  TableMetadata,
  ViewMetadata,
} from "../../iceberg";
import { href, useLoad, type Loaded } from "../../ui";

/** Namespace levels in one route segment: joined by the unit separator, as the REST API does. */
const SEP = "\u001f";

export function nsKey(levels: string[]): string {
  return levels.join(SEP);
}

export function nsLevels(key: string): string[] {
  return key.split(SEP);
}

export function nsName(levels: string[]): string {
  return levels.join(".");
}

export const links = {
  catalog: (catalog: string) => href("browse", catalog),
  namespace: (catalog: string, levels: string[]) =>
    href("browse", catalog, "namespace", nsKey(levels)),
  table: (catalog: string, levels: string[], name: string) =>
    href("browse", catalog, "table", nsKey(levels), name),
  view: (catalog: string, levels: string[], name: string) =>
    href("browse", catalog, "view", nsKey(levels), name),
};

/** The catalog's REST prefix, as its config endpoint names it (the catalog's name by default). */
export function usePrefix(catalog: string): Loaded<string> {
  return useLoad(async () => {
    const config = await catalogGet<CatalogConfig | null>(
      `/config?warehouse=${encodeURIComponent(catalog)}`,
    );
    return String(config?.overrides?.prefix ?? catalog);
  }, [catalog]);
}

function nsBase(prefix: string, levels: string[]): string {
  return `/${seg(prefix)}/namespaces/${nsPath(levels)}`;
}

/** The namespaces directly under `parent` (the top level when empty). */
export async function listNamespaces(prefix: string, parent: string[]): Promise<string[][]> {
  const query = parent.length ? `?parent=${nsPath(parent)}` : "";
  const found = await all(
    (page: PageQuery) => catalogGet<ListNamespacesResponse>(`/${seg(prefix)}/namespaces${withPage(query, page)}`),
    "namespaces",
  );
  return found.map((n) => n.map(String));
}

/** A query (with its "?", or "") with the catalog API's page token added when there is one. */
function withPage(query: string, page: PageQuery): string {
  if (!page.pageToken) {
    return query;
  }
  return `${query}${query ? "&" : "?"}pageToken=${encodeURIComponent(page.pageToken)}`;
}

export function loadNamespace(prefix: string, levels: string[]): Promise<GetNamespaceResponse> {
  return catalogGet(nsBase(prefix, levels));
}

async function names(prefix: string, levels: string[], kind: "tables" | "views") {
  const ids = await all(
    (page: PageQuery) =>
      catalogGet<ListIdentifiersResponse>(
        `${nsBase(prefix, levels)}/${kind}${withPage("", page)}`,
      ),
    "identifiers",
  );
  return ids.map((id) => String(id.name)).sort();
}

export const listTables = (prefix: string, levels: string[]) => names(prefix, levels, "tables");
export const listViews = (prefix: string, levels: string[]) => names(prefix, levels, "views");

/**
 * A table with every snapshot. A load may carry short-lived storage credentials (in
 * `storage-credentials` and `config`): they are dropped here, before anything keeps or shows them.
 */
export async function loadTable(
  prefix: string,
  levels: string[],
  name: string,
): Promise<LoadedEntity<TableMetadata>> {
  const body = await catalogGetExact<LoadResult<TableMetadata> | null>(
    `${nsBase(prefix, levels)}/tables/${seg(name)}?snapshots=all`,
  );
  return { "metadata-location": body?.["metadata-location"], metadata: body?.metadata ?? {} };
}

export async function loadView(
  prefix: string,
  levels: string[],
  name: string,
): Promise<LoadedEntity<ViewMetadata>> {
  const body = await catalogGet<LoadResult<ViewMetadata> | null>(
    `${nsBase(prefix, levels)}/views/${seg(name)}`,
  );
  return { "metadata-location": body?.["metadata-location"], metadata: body?.metadata ?? {} };
}
