/**
 * The pieces every part of the OpenAPI document is built from. Each schema in the
 * document comes from zod: a response shape is a zod schema registered here as a named
 * component (`component(id, schema)`) and referenced by name; a request body or a query
 * parameter is `z.toJSONSchema` of the very schema the route validates with. Route modules build
 * their path items from these helpers; src/api/openapi/document.ts merges them into one document.
 */
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
  description: string;
}

export interface OpenApiOperation {
  summary: string;
  description?: string;
  /** `[]` for a public route; omitted, the document's bearer requirement applies. */
  security?: [];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse>;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** OpenAPI `paths`: path (`/cards/{id}`) to its operations by lower-case method. */
export type PathItems = Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;

/** Where the document keeps its named schemas; a `$ref` points here by component name. */
export const COMPONENT_PREFIX = '#/components/schemas/';

/** The registry `z.toJSONSchema` turns into `components.schemas`, cross-references included. */
export const apiSchemas = z.registry<{ id: string }>();
const byId = new Map<string, z.ZodType>();

/**
 * Registers `schema` as the component `id` and returns it unchanged. Two schemas under one name
 * throw at import: zod's registry would silently keep the last one and the document would
 * describe the other route wrongly.
 */
export function component<Schema extends z.ZodType>(id: string, schema: Schema): Schema {
  const existing = byId.get(id);
  if (existing !== undefined && existing !== schema) {
    throw new Error(`OpenAPI component '${id}' is registered twice with different schemas`);
  }
  byId.set(id, schema);
  apiSchemas.add(schema, { id });
  return schema;
}

/** Every registered component by name (tests parse real answers with them). */
export function componentSchemas(): ReadonlyMap<string, z.ZodType> {
  return byId;
}

/** `{$ref}` to a registered component; throws for an unregistered schema rather than inline it. */
export function schemaRef(schema: z.ZodType): JsonSchema {
  const id = apiSchemas.get(schema)?.id;
  if (id === undefined) {
    throw new Error('schemaRef: register the schema with component(id, schema) first');
  }
  return { $ref: `${COMPONENT_PREFIX}${id}` };
}

/**
 * A schema as it validates what the caller sends (`io: 'input'`), without `$schema`: OpenAPI 3.1
 * declares the dialect once for the whole document.
 */
export function inputSchema(schema: z.ZodType): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  delete generated.$schema;
  return generated;
}

export const jsonResponse = (schema: z.ZodType, description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: schemaRef(schema) } },
});

/** A non-JSON answer (an event stream, a page, a script): its body is text of these types. */
export const textResponse = (description: string, ...mediaTypes: string[]): OpenApiResponse => ({
  description,
  content: Object.fromEntries(
    mediaTypes.map((mediaType) => [mediaType, { schema: inputSchema(z.string()) }]),
  ),
});

export const requestBody = (schema: z.ZodType): OpenApiOperation['requestBody'] => ({
  required: true,
  content: { 'application/json': { schema: inputSchema(schema) } },
});

/**
 * One query parameter per key of the route's query schema, each with its zod schema. The
 * descriptions object must name every key, so a new query key cannot go undocumented.
 */
export function queryParameters<Shape extends Record<string, z.ZodType>>(
  schema: z.ZodObject<Shape>,
  descriptions: { [Key in keyof Shape]: string },
): OpenApiParameter[] {
  return Object.entries<z.ZodType>(schema.shape).map(([name, property]) => ({
    name,
    in: 'query',
    required: !property.isOptional(),
    schema: inputSchema(property),
    description: descriptions[name as keyof Shape],
  }));
}

export const pathParameter = (
  name: string,
  schema: z.ZodType,
  description: string,
): OpenApiParameter => ({
  name,
  in: 'path',
  required: true,
  schema: inputSchema(schema),
  description,
});
