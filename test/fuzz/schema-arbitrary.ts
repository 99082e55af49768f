import fc from 'fast-check';

/** A JSON Schema as the OpenAPI document holds it (the subset zod-to-openapi writes). */
export type JsonSchema = Record<string, any>;

/** Generated strings stay short: the point is shape and edge values, not volume. */
const MAX_GENERATED_LENGTH = 48;
/** A value just over a bound is generated only for bounds this small (no multi-megabyte bodies). */
const MAX_OVERSIZE = 10_000;

const text = (minLength = 0, maxLength = MAX_GENERATED_LENGTH) =>
  fc.oneof(
    fc.string({ minLength, maxLength }),
    fc.string({ unit: 'binary', minLength, maxLength }),
    fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '{"$ne":null}', '<script>', '%ZZ', '__proto__', 'null', '💥'.repeat(3)),
  );

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document (generated from the
 * contracts' zod schemas): `valid` leans to values the schema accepts, `anyValue` mixes them
 * with values that break it (wrong types, out-of-range numbers, strings just over their bound,
 * extra keys), at every depth.
 */
export class SchemaArbitraries {
  constructor(private readonly components: Record<string, JsonSchema> = {}) {}

  anyValue(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
    return fc.oneof({ weight: 3, arbitrary: this.valid(schema, depth) }, { weight: 1, arbitrary: this.invalid(schema) });
  }

  /** `strict`: valid all the way down; otherwise members may break their schema (`anyValue`). */
  valid(raw: JsonSchema | undefined, depth = 0, strict = false): fc.Arbitrary<unknown> {
    const member = (s: JsonSchema | undefined) => (strict ? this.valid(s, depth + 1, true) : this.anyValue(s, depth + 1));
    const schema = this.resolve(raw);
    if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(schema[key])) return fc.oneof(...schema[key].map((s: JsonSchema) => this.valid(s, depth + 1, strict)));
    }
    if (Array.isArray(schema.allOf))
      return this.valid(Object.assign({}, ...schema.allOf.map((s: JsonSchema) => this.resolve(s))), depth + 1, strict);
    const types: string[] = [schema.type ?? []].flat();
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...schema, type }, depth, strict)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: Math.max(schema.minimum ?? -1_000, -1e9), max: Math.min(schema.maximum ?? 1_000, 1e9) });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
      case 'string':
        return this.string(schema);
      case 'array':
        return fc.array(member(schema.items), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
        });
      case 'object':
      case undefined: {
        const properties: Record<string, JsonSchema> = schema.properties ?? {};
        if (Object.keys(properties).length === 0)
          return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
        const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, member(value)])), {
          requiredKeys: (schema.required ?? []).filter((key: string) => key in properties),
        });
        if (strict) return record;
        // Now and then an unknown key on top.
        return fc
          .tuple(record, fc.option(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue({ maxDepth: 1 })), { freq: 5 }))
          .map(([value, extra]) => (extra ? { ...value, [extra[0]]: extra[1] } : value));
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  /** Values that break the schema (or at least test its edges). */
  invalid(raw: JsonSchema | undefined): fc.Arbitrary<unknown> {
    const schema = this.resolve(raw) ?? {};
    const options: fc.Arbitrary<unknown>[] = [fc.jsonValue({ maxDepth: 2 }), fc.constant(null), text()];
    if (typeof schema.maxLength === 'number' && schema.maxLength < MAX_OVERSIZE)
      options.push(fc.constant('x'.repeat(schema.maxLength + 1)));
    if (typeof schema.maximum === 'number') options.push(fc.constantFrom(schema.maximum + 1, 1e308, 0.5));
    if (typeof schema.minimum === 'number') options.push(fc.constant(schema.minimum - 1));
    return fc.oneof(...options);
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_GENERATED_LENGTH, MAX_GENERATED_LENGTH));
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'date-time':
        return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      case 'uri':
        return fc.webUrl();
      case 'email':
        return fc.emailAddress();
      default:
        return text(minLength, maxLength).filter((s) => s.length >= minLength);
    }
  }

  private resolve(schema: JsonSchema | undefined): JsonSchema | undefined {
    if (!schema?.$ref) return schema;
    return this.resolve(this.components[String(schema.$ref).split('/').pop()!]);
  }
}
