import { z } from 'zod';
import { filterOps } from '../query/filter-node.ts';
import { formats } from '../formats/format-names.ts';
import type { Endpoint } from '../reports/endpoint.ts';
import { withExample } from './openapi-examples.ts';

type Json = Record<string, unknown>;

const toSchema = (schema: z.ZodType): Json =>
  z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Json;

/** Moves a schema's `$defs` into components and points its references there. */
function hoist(schema: Json, components: Json): Json {
  const { $schema: _s, $defs, ...rest } = schema as Json & { $defs?: Json };
  for (const [name, def] of Object.entries($defs ?? {})) if (!(name in components)) components[name] = def;
  return JSON.parse(JSON.stringify(rest).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
}

const errorResponses = {
  '401': {
    description: 'Missing, unknown, expired or revoked API key',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  },
  '403': {
    description: 'The key’s organization has no access to the object',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  },
  '404': {
    description: 'No such object',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  },
  '406': {
    description: 'The Accept header names no format this operation offers, or disagrees with ?format=',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  },
  '422': {
    description: 'Validation error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
  },
  '429': {
    description: 'Rate limit exceeded; Retry-After says how long to wait',
    headers: { 'Retry-After': { schema: { type: 'integer' } } },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  },
};

/** The table formats a report answers in besides the spec's JSON, chosen by Accept. */
const tableContent = Object.fromEntries(
  Object.entries(formats)
    .filter(([name]) => name !== 'json')
    .map(([, f]) => [f.mediaType, { schema: f.binary ? { type: 'string', format: 'binary' } : { type: 'string' } }]),
);

const tableNote =
  ' Accept (or `?format=json|ndjson|csv|arrow|parquet`) chooses the encoding: the default above, or the rows as a table: `application/x-ndjson` (one row per line), `text/csv` (dotted column paths, NULL an empty field, the empty string `""`), `application/vnd.apache.arrow.stream` (typed columns, the head as schema metadata `aea:head`) or `application/vnd.apache.parquet` (the head as key-value metadata `aea:head`).';

const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed per window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the window' },
  'X-RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix time (seconds) when the window resets' },
};

const baseComponents: Json = {
  ErrorBody: {
    type: 'object',
    properties: { detail: { type: 'string' }, code: { type: 'string' } },
    required: ['detail', 'code'],
  },
  ValidationError: {
    type: 'object',
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: { type: 'string' },
      type: { type: 'string' },
      input: {},
      ctx: { type: 'object' },
    },
    required: ['loc', 'msg', 'type'],
  },
  HTTPValidationError: {
    type: 'object',
    properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
  },
  FilterLeaf: {
    type: 'object',
    properties: { field: { type: 'string' }, op: { type: 'string', enum: [...filterOps] }, value: {} },
    required: ['field', 'op', 'value'],
    additionalProperties: false,
  },
  FilterNode: {
    description: 'A leaf {field, op, value} or a group with exactly one of and, or, not.',
    oneOf: [
      { $ref: '#/components/schemas/FilterLeaf' },
      ...(['and', 'or'] as const).map((k) => ({
        type: 'object',
        properties: { [k]: { type: 'array', minItems: 1, items: { $ref: '#/components/schemas/FilterNode' } } },
        required: [k],
        additionalProperties: false,
      })),
      {
        type: 'object',
        properties: { not: { $ref: '#/components/schemas/FilterNode' } },
        required: ['not'],
        additionalProperties: false,
      },
    ],
  },
};

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', components: Json): Json[] {
  if (!schema) return [];
  const json = hoist(toSchema(schema), components) as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

function success(e: Endpoint): Json {
  const spec = e.stream
    ? {
        description: 'Server-Sent Events: `summary` first, then one `result` per row; every data line is JSON',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      }
    : { description: 'Success', content: { 'application/json': { schema: { type: 'object' } } } };
  if (e.group !== 'reports') return { ...spec, headers: rateHeaders };
  return {
    description: spec.description + tableNote + fingerprintNote,
    headers: { ...rateHeaders, ...fingerprintHeaders },
    content: { ...spec.content, ...tableContent },
  };
}

const fingerprintNote =
  ' Every answer carries its fingerprint (a hash of the normalized request, the format, the dataset’s and state’s content and the engine version) in its head (`info.fingerprint`, the first stream event’s `fingerprint`) and as the ETag; the same fingerprint always means a byte-identical body (docs/extensions.md).';

const fingerprintHeaders = { ETag: { schema: { type: 'string' }, description: 'The answer’s fingerprint, quoted' } };

/** Reports answer a conditional request: If-None-Match naming the answer's fingerprint gets a 304, before any data is read. */
const conditionalParameter = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description:
    'ETags of answers the caller holds (or *): when the answer’s fingerprint is among them, a 304 with no body, nothing read',
};
/** `?format=` beside Accept, for clients that cannot set a header (src/formats/format-param.ts). */
const formatParameter = {
  name: 'format',
  in: 'query',
  required: false,
  schema: { type: 'string', enum: Object.keys(formats) },
  description:
    'The encoding, as Accept chooses it, for tools that cannot set a header (a spreadsheet’s import from a URL): an Accept given beside it that does not take it is a 406',
};
const csvRawParameter = {
  name: 'csv_raw',
  in: 'query',
  required: false,
  schema: { type: 'boolean', default: false },
  description:
    "text/csv only: true writes text cells exactly as stored; by default a text cell starting with =, +, -, @, tab or CR gets a leading ' so spreadsheets show it as text (docs/security.md)",
};
const notModified = {
  '304': {
    description: 'Not Modified: the answer’s fingerprint is among If-None-Match’s',
    headers: fingerprintHeaders,
  },
};

/** The OpenAPI 3.1 document of every registered endpoint, from the same zod schemas that validate requests. */
export function openApiDocument(endpoints: readonly Endpoint[], info: { version: string }): Json {
  const components: Json = { ...baseComponents };
  const paths: Record<string, Json> = {};
  for (const e of endpoints) {
    const operation: Json = {
      operationId: `${e.name}_${e.method.toLowerCase()}`,
      summary: e.summary,
      tags: e.tags,
      ...(e.deprecated ? { deprecated: true } : {}),
      parameters: [
        ...parameters(e.schemas.params, 'path', components),
        ...parameters(e.schemas.query, 'query', components),
        ...(e.group === 'reports' ? [conditionalParameter, formatParameter, csvRawParameter] : []),
      ],
      responses: {
        '200': success(e),
        ...(e.group === 'reports' ? notModified : {}),
        ...errorResponses,
      },
    };
    if (e.schemas.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: hoist(toSchema(e.schemas.body), components) } },
      };
    }
    const path = (paths[e.path] ??= {});
    path[e.method.toLowerCase()] = withExample(operation, e.method, e.path);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Answer Engine Analytics API',
      version: info.version,
      description:
        'How AI answer engines mention brands, cite web pages and send traffic to sites. Every request needs an API key in X-API-Key (or Authorization: Bearer).',
    },
    servers: [{ url: '/' }],
    security: [{ APIKeyHeader: [] }, { BearerAuth: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerAuth: { type: 'http', scheme: 'bearer' },
      },
    },
  };
}
