type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A minimal value that satisfies a JSON schema (first enum value, empty strings become "sample",
 * every object property present), so structured-output calls get a parseable answer by default.
 */
export function sampleFromSchema(schema: unknown, root: unknown = schema): unknown {
  if (!isSchema(schema)) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (typeof schema.$ref === "string") {
    const target = schema.$ref
      .replace(/^#\//, "")
      .split("/")
      .reduce<unknown>((node, key) => (isSchema(node) ? node[key] : undefined), root);
    return sampleFromSchema(target, root);
  }
  for (const combinator of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[combinator];
    if (Array.isArray(options) && options.length > 0) return sampleFromSchema(options[0], root);
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((candidate) => candidate !== "null") ?? types[0];
  switch (type) {
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [
          name,
          sampleFromSchema(property, root),
        ]),
      );
    }
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: count }, () => sampleFromSchema(schema.items, root));
    }
    case "string":
      return "sample";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}
