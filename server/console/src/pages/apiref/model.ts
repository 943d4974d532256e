// The OpenAPI document (GET /api/management/v1/openapi.json) as the API page shows it: read from
// `unknown` and narrowed field by field, so a document the page does not expect shows less rather
// than breaking it. Only OpenAPI 3.0's parts the management API uses are read.

/** A schema, as far as the page describes it. */
export interface SchemaObject {
  ref?: string;
  type?: string;
  format?: string;
  description?: string;
  enum?: string[];
  nullable?: boolean;
  readOnly?: boolean;
  items?: SchemaObject;
  properties?: [string, SchemaObject][];
  required?: string[];
  additionalProperties?: SchemaObject;
  oneOf?: SchemaObject[];
}

export interface Parameter {
  name: string;
  in: string;
  required: boolean;
  description?: string;
  schema?: SchemaObject;
}

export interface Response {
  status: string;
  description: string;
  schema?: SchemaObject;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** `security: []`: no token needed. */
  open: boolean;
  parameters: Parameter[];
  requestBody?: { required: boolean; schema?: SchemaObject };
  responses: Response[];
}

export interface ApiDocument {
  title: string;
  version: string;
  tags: string[];
  operations: Operation[];
  schemas: Map<string, SchemaObject>;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The last segment of a local reference: `#/components/schemas/Catalog` → `Catalog`. */
function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

export function schemaOf(v: unknown): SchemaObject {
  const o = obj(v);
  const ref = str(o.$ref);
  if (ref) {
    return { ref: refName(ref) };
  }
  const additional = o.additionalProperties;
  return {
    type: str(o.type),
    format: str(o.format),
    description: str(o.description),
    enum: o.enum === undefined ? undefined : list(o.enum).map(String),
    nullable: o.nullable === true,
    readOnly: o.readOnly === true,
    items: o.items === undefined ? undefined : schemaOf(o.items),
    properties:
      o.properties === undefined
        ? undefined
        : Object.entries(obj(o.properties)).map(([k, p]) => [k, schemaOf(p)]),
    required: list(o.required).map(String),
    additionalProperties:
      typeof additional === "object" && additional !== null ? schemaOf(additional) : undefined,
    oneOf: o.oneOf === undefined ? undefined : list(o.oneOf).map(schemaOf),
  };
}

/** A parameter, following a `$ref` into components.parameters. */
function parameterOf(v: unknown, shared: Obj): Parameter {
  let o = obj(v);
  const ref = str(o.$ref);
  if (ref) {
    o = obj(shared[refName(ref)]);
  }
  return {
    name: str(o.name) ?? "?",
    in: str(o.in) ?? "?",
    required: o.required === true,
    description: str(o.description),
    schema: o.schema === undefined ? undefined : schemaOf(o.schema),
  };
}

/** The JSON (or, failing that, the first) media type's schema of a body. */
function bodySchema(content: unknown): SchemaObject | undefined {
  const c = obj(content);
  const media = c["application/json"] ?? Object.values(c)[0];
  const schema = obj(media).schema;
  return schema === undefined ? undefined : schemaOf(schema);
}

const METHODS = ["get", "put", "post", "delete", "patch"];

export function documentOf(raw: unknown): ApiDocument {
  const doc = obj(raw);
  const info = obj(doc.info);
  const components = obj(doc.components);
  const sharedParameters = obj(components.parameters);
  const sharedResponses = obj(components.responses);
  const operations: Operation[] = [];
  for (const [path, itemRaw] of Object.entries(obj(doc.paths))) {
    const item = obj(itemRaw);
    const pathParameters = list(item.parameters).map((p) => parameterOf(p, sharedParameters));
    for (const method of METHODS) {
      if (item[method] === undefined) {
        continue;
      }
      const op = obj(item[method]);
      const body = op.requestBody === undefined ? undefined : obj(op.requestBody);
      operations.push({
        id: str(op.operationId) ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        summary: str(op.summary) ?? "",
        description: str(op.description),
        tag: str(list(op.tags)[0]) ?? "Other",
        open: Array.isArray(op.security) && op.security.length === 0,
        parameters: [
          ...pathParameters,
          ...list(op.parameters).map((p) => parameterOf(p, sharedParameters)),
        ],
        requestBody: body && { required: body.required === true, schema: bodySchema(body.content) },
        responses: Object.entries(obj(op.responses)).map(([status, r]) => {
          let response = obj(r);
          const ref = str(response.$ref);
          if (ref) {
            response = obj(sharedResponses[refName(ref)]);
          }
          return {
            status,
            description: str(response.description) ?? "",
            schema: bodySchema(response.content),
          };
        }),
      });
    }
  }
  const tags = list(doc.tags).map((t) => str(obj(t).name) ?? "");
  for (const op of operations) {
    if (!tags.includes(op.tag)) {
      tags.push(op.tag);
    }
  }
  return {
    title: str(info.title) ?? "API",
    version: str(info.version) ?? "",
    tags: tags.filter(Boolean),
    operations,
    schemas: new Map(Object.entries(obj(components.schemas)).map(([k, s]) => [k, schemaOf(s)])),
  };
}

/** A schema's type in one line: a name for a reference, `Catalog[]`, `map<string, string>`, … */
export function typeText(s: SchemaObject | undefined): string {
  if (!s) {
    return "";
  }
  if (s.ref) {
    return s.ref;
  }
  let text: string;
  if (s.oneOf) {
    text = `one of ${s.oneOf.map(typeText).join(" | ")}`;
  } else if (s.type === "array") {
    text = `${typeText(s.items)}[]`;
  } else if (s.type === "object" && s.additionalProperties && !s.properties) {
    text = `map<string, ${typeText(s.additionalProperties)}>`;
  } else {
    text = s.type ?? "unspecified";
    if (s.format) {
      text += ` (${s.format})`;
    }
  }
  if (s.enum) {
    text += `: ${s.enum.join(" | ")}`;
  }
  return s.nullable ? `${text}, nullable` : text;
}

/** The schema names a schema refers to directly (its own, its items', its variants'). */
export function refsOf(s: SchemaObject | undefined): string[] {
  if (!s) {
    return [];
  }
  if (s.ref) {
    return [s.ref];
  }
  return [
    ...refsOf(s.items),
    ...refsOf(s.additionalProperties),
    ...(s.oneOf ?? []).flatMap(refsOf),
  ];
}

/**
 * Who may call an operation, as its summary says it (the first parenthesis: "Create a catalog (the
 * service admin)"); without one, every signed-in principal, or anyone when no token is needed.
 */
export function whoMayCall(op: Operation): string {
  const said = /\(([^)]*)\)/.exec(op.summary)?.[1];
  if (said) {
    return said;
  }
  return op.open ? "anyone, no token needed" : "every signed-in principal";
}
