// Turns the OpenAPI document's JSON Schemas into rows a person can read: one per field (nested
// objects flattened as error.code), its type (a referenced component by name), whether required,
// its description and example.
export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  format?: string;
  description?: string;
  example?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
};

export type TypeLabel = { text: string; ref?: string };
export type FieldRow = { name: string; type: TypeLabel; required: boolean; description?: string; example?: string };

export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** A schema's type as text, and the component it refers to, if any. */
export function typeLabel(schema: JsonSchema): TypeLabel {
  if (schema.$ref) return { text: refName(schema.$ref), ref: refName(schema.$ref) };
  if (schema.anyOf) {
    const others = schema.anyOf.filter((option) => option.type !== "null");
    const nullable = others.length < schema.anyOf.length;
    const inner = others.length === 1 ? typeLabel(others[0]) : { text: others.map((option) => typeLabel(option).text).join(" | ") };
    return nullable ? { ...inner, text: `${inner.text} or null` } : inner;
  }
  if (schema.const !== undefined) return { text: JSON.stringify(schema.const) };
  if (schema.enum) return { text: schema.enum.map((value) => JSON.stringify(value)).join(" | ") };
  if (schema.type === "array" && schema.items) {
    const item = typeLabel(schema.items);
    return { ...item, text: `array of ${item.text}` };
  }
  const base = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  return { text: schema.format ? `${base} (${schema.format})` : base };
}

/** The non-null branch of an optional field, where its description and example live. */
function unwrap(schema: JsonSchema): JsonSchema {
  const branch = schema.anyOf?.find((option) => option.type !== "null");
  return branch ? { ...branch, description: schema.description ?? branch.description, example: schema.example ?? branch.example } : schema;
}

export function describeFields(schema: JsonSchema, prefix = ""): FieldRow[] {
  const rows: FieldRow[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    const shown = unwrap(property);
    rows.push({
      name: path,
      type: typeLabel(property),
      required: schema.required?.includes(name) ?? false,
      description: shown.description,
      example: shown.example === undefined ? undefined : JSON.stringify(shown.example),
    });
    if (shown.type === "object" && shown.properties) rows.push(...describeFields(shown, path));
  }
  return rows;
}

/** An example body from the fields' examples, for the curl snippet of an operation. */
export function exampleBody(schema: JsonSchema): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const example = unwrap(property).example;
    if (example !== undefined && schema.required?.includes(name)) body[name] = example;
  }
  return body;
}
