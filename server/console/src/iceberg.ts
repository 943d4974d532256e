// The Iceberg REST catalog API's answers, as far as Browse reads them. They are not in the
// management API's OpenAPI document (Iceberg's own REST spec defines them), so they are written by
// hand here: every field optional, since the console shows whatever a table or view carries.
import { catalogSend, nsPath, seg } from "./api";

/** Snapshot ids are 64-bit: beyond 2^53 they arrive as strings (see src/bigints.ts). */
export type LongId = number | string;

/** A field type: a primitive's name, or a nested struct, list or map. */
export type IcebergType = string | StructType | ListType | MapType;

export interface NestedField {
  id: number;
  name: string;
  type: IcebergType;
  required?: boolean;
  doc?: string;
}

export interface StructType {
  type: "struct";
  fields?: NestedField[];
}

export interface ListType {
  type: "list";
  element: IcebergType;
}

export interface MapType {
  type: "map";
  key: IcebergType;
  value: IcebergType;
}

export interface IcebergSchema extends StructType {
  "schema-id"?: number;
}

export interface PartitionField {
  "source-id": number;
  "field-id"?: number;
  name: string;
  transform: string;
}

export interface PartitionSpec {
  "spec-id": number;
  fields?: PartitionField[];
}

export interface SortField {
  "source-id": number;
  transform: string;
  direction: string;
  "null-order": string;
}

export interface SortOrder {
  "order-id": number;
  fields?: SortField[];
}

export interface SnapshotRef {
  type: "branch" | "tag";
  "snapshot-id": LongId;
  "max-ref-age-ms"?: number;
  "max-snapshot-age-ms"?: number;
  "min-snapshots-to-keep"?: number;
}

export interface Snapshot {
  "snapshot-id": LongId;
  "parent-snapshot-id"?: LongId | null;
  "sequence-number"?: number;
  "timestamp-ms": number;
  "manifest-list"?: string;
  summary?: Record<string, string>;
  "schema-id"?: number;
}

export interface MetadataLogEntry {
  "metadata-file": string;
  "timestamp-ms": number;
}

export interface TableMetadata {
  "format-version"?: number;
  "table-uuid"?: string;
  location?: string;
  "last-updated-ms"?: number;
  properties?: Record<string, string>;
  schemas?: IcebergSchema[];
  "current-schema-id"?: number;
  "partition-specs"?: PartitionSpec[];
  "default-spec-id"?: number;
  "sort-orders"?: SortOrder[];
  "default-sort-order-id"?: number;
  snapshots?: Snapshot[];
  refs?: Record<string, SnapshotRef>;
  "current-snapshot-id"?: LongId | null;
  "metadata-log"?: MetadataLogEntry[];
}

export interface ViewRepresentation {
  type: string;
  sql?: string;
  dialect?: string;
}

export interface ViewVersion {
  "version-id": number;
  "timestamp-ms": number;
  "schema-id"?: number;
  summary?: Record<string, string>;
  representations?: ViewRepresentation[];
  "default-namespace"?: string[];
}

export interface ViewMetadata {
  "view-uuid"?: string;
  "format-version"?: number;
  location?: string;
  schemas?: IcebergSchema[];
  "current-version-id"?: number;
  versions?: ViewVersion[];
  properties?: Record<string, string>;
}

/** A loaded table or view as Browse keeps it: where its metadata is, and the metadata. */
export interface Loaded<M> {
  "metadata-location"?: string;
  metadata: M;
}

/** loadTable's and loadView's answer; its credentials and config are never kept. */
export interface LoadResult<M> {
  "metadata-location"?: string;
  metadata?: M;
}

export interface CatalogConfig {
  defaults?: Record<string, string>;
  overrides?: Record<string, string>;
}

export interface ListNamespacesResponse {
  namespaces?: string[][];
  "next-page-token"?: string | null;
}

export interface TableIdentifier {
  namespace: string[];
  name: string;
}

export interface ListIdentifiersResponse {
  identifiers?: TableIdentifier[];
  "next-page-token"?: string | null;
}

export interface GetNamespaceResponse {
  namespace: string[];
  properties?: Record<string, string>;
}

/** A namespace to create: its levels (the parent's and its own name) and properties. */
export interface CreateNamespaceRequest {
  namespace: string[];
  properties?: Record<string, string>;
}

export type CreateNamespaceResponse = GetNamespaceResponse;

/** Iceberg REST createNamespace. */
export function createNamespace(
  prefix: string,
  request: CreateNamespaceRequest,
): Promise<CreateNamespaceResponse> {
  return catalogSend("POST", `/${seg(prefix)}/namespaces`, {
    namespace: request.namespace,
    properties: request.properties ?? {},
  });
}

/** Iceberg REST dropNamespace: the server refuses (409) a namespace that is not empty. */
export async function dropNamespace(prefix: string, levels: string[]): Promise<void> {
  await catalogSend<void>("DELETE", `/${seg(prefix)}/namespaces/${nsPath(levels)}`);
}

/** Iceberg REST dropTable, without purging its files (the default). */
export async function dropTable(prefix: string, levels: string[], name: string): Promise<void> {
  await catalogSend<void>(
    "DELETE",
    `/${seg(prefix)}/namespaces/${nsPath(levels)}/tables/${seg(name)}`,
  );
}
