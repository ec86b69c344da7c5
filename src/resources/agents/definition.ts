import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { z } from 'zod';
import { ConflictError, ValidationError, type ValidationIssue } from '../../errors.ts';
import { quoteList } from '../../query/validation.ts';

type Loc = (string | number)[];

/** One step of a workflow: a request to this engine, run as the agent's organization. */
const stepSchema = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  method: z.enum(['GET', 'POST']),
  path: z.string().startsWith('/'),
  body: z.unknown().optional(),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
});

const workflowSchema = z.strictObject({ steps: z.array(stepSchema).max(50) });

export type Step = z.output<typeof stepSchema>;
export type Workflow = z.output<typeof workflowSchema>;

/** An agent version ready to run: its workflow and compiled input and output schemas. */
export interface AgentDefinition {
  readonly workflow: Workflow;
  readonly inputSchema: Record<string, unknown>;
  readonly outputSchema: Record<string, unknown>;
  readonly validateInputs: ValidateFunction;
  readonly validateOutputs: ValidateFunction;
}

type FormatsPlugin = (ajv: Ajv) => Ajv;
let validator: Ajv | undefined;
// ajv and ajv-formats are CommonJS, some 70 modules: required with the first schema compiled, not with every engine.
function schemaCompiler(): Ajv {
  if (!validator) {
    const require = createRequire(import.meta.url);
    const { Ajv: AjvClass } = require('ajv') as typeof import('ajv');
    const formats = require('ajv-formats') as FormatsPlugin & { default?: FormatsPlugin };
    validator = new AjvClass({ allErrors: true, strict: false });
    (formats.default ?? formats)(validator);
  }
  return validator;
}
const compiled = new Map<string, ValidateFunction>();

function compile(text: string): ValidateFunction {
  let fn = compiled.get(text);
  if (!fn) {
    fn = schemaCompiler().compile(JSON.parse(text) as object);
    compiled.set(text, fn);
  }
  return fn;
}

/** Parses and compiles a stored version; a broken definition cannot be published or run. */
export function loadDefinition(
  agentId: string,
  version: number,
  texts: { workflow: string; input_schema: string; output_schema: string },
): AgentDefinition {
  try {
    const workflow = workflowSchema.parse(JSON.parse(texts.workflow));
    const ids = new Set<string>();
    for (const s of workflow.steps) {
      if (ids.has(s.id)) throw new Error(`step id '${s.id}' is used twice`);
      ids.add(s.id);
    }
    return {
      workflow,
      inputSchema: JSON.parse(texts.input_schema) as Record<string, unknown>,
      outputSchema: JSON.parse(texts.output_schema) as Record<string, unknown>,
      validateInputs: compile(texts.input_schema),
      validateOutputs: compile(texts.output_schema),
    };
  } catch (error) {
    throw new ConflictError(
      `version ${version} of agent ${agentId} is not a valid definition: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

const pointer = (instancePath: string): Loc =>
  instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

const typeIssues: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  integer: { type: 'int_type', msg: 'Input should be a valid integer' },
  number: { type: 'float_type', msg: 'Input should be a valid number' },
  boolean: { type: 'bool_type', msg: 'Input should be a valid boolean' },
  object: { type: 'dict_type', msg: 'Input should be a valid dictionary' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  null: { type: 'none_required', msg: 'Input should be None' },
};

/** One JSON Schema error in FastAPI's words, at the input it names. */
function issueOf(e: ErrorObject, root: unknown, base: Loc): ValidationIssue {
  const path = pointer(e.instancePath);
  let value: unknown = root;
  for (const p of path) value = (value as Record<string | number, unknown> | undefined)?.[p];
  const loc = [...base, ...path];
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { type: 'missing', loc: [...loc, String(p.missingProperty)], msg: 'Field required', input: value };
    case 'additionalProperties':
      return {
        type: 'extra_forbidden',
        loc: [...loc, String(p.additionalProperty)],
        msg: 'Extra inputs are not permitted',
        input: (value as Record<string, unknown>)[String(p.additionalProperty)],
      };
    case 'type': {
      const t = typeIssues[String(Array.isArray(p.type) ? p.type[0] : p.type)];
      return t
        ? { type: t.type, loc, msg: t.msg, input: value }
        : { type: 'value_error', loc, msg: `Value error, ${e.message}`, input: value, ctx: { error: e.message } };
    }
    case 'enum':
    case 'const': {
      const expected = quoteList(
        (e.keyword === 'enum' ? (p.allowedValues as unknown[]) : [p.allowedValue]).map(String),
      );
      return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input: value, ctx: { expected } };
    }
    case 'pattern':
      return {
        type: 'string_pattern_mismatch',
        loc,
        msg: `String should match pattern '${String(p.pattern)}'`,
        input: value,
        ctx: { pattern: p.pattern },
      };
    case 'minLength':
      return {
        type: 'string_too_short',
        loc,
        msg: `String should have at least ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`,
        input: value,
        ctx: { min_length: p.limit },
      };
    case 'maxLength':
      return {
        type: 'string_too_long',
        loc,
        msg: `String should have at most ${String(p.limit)} character${p.limit === 1 ? '' : 's'}`,
        input: value,
        ctx: { max_length: p.limit },
      };
    case 'minimum':
      return {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${String(p.limit)}`,
        input: value,
        ctx: { ge: p.limit },
      };
    case 'maximum':
      return {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${String(p.limit)}`,
        input: value,
        ctx: { le: p.limit },
      };
    default: {
      const msg = `${e.message ?? 'is invalid'}${e.keyword === 'format' ? ` (format ${String(p.format)})` : ''}`;
      return { type: 'value_error', loc, msg: `Value error, ${msg}`, input: value, ctx: { error: msg } };
    }
  }
}

/** JSON Schema errors as a FastAPI 422 whose locations name the inputs (`body.inputs.<name>`); one per location. */
export function schemaIssues(validate: ValidateFunction, value: unknown, base: Loc): ValidationIssue[] {
  if (validate(value)) return [];
  const out = new Map<string, ValidationIssue>();
  for (const e of validate.errors ?? []) {
    const issue = issueOf(e, value, base);
    const k = JSON.stringify(issue.loc);
    if (!out.has(k)) out.set(k, issue);
  }
  return [...out.values()];
}

export function checkInputs(definition: AgentDefinition, inputs: Record<string, unknown>): void {
  const issues = schemaIssues(definition.validateInputs, inputs, ['body', 'inputs']);
  if (issues.length > 0) throw new ValidationError(issues);
}

const inputText = (v: unknown): string => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

const whole = /^\{\{\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;
const anywhere = /\{\{\s*inputs\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * Fills `{{inputs.x}}` templates. A string that is exactly one template becomes the input's value
 * (any JSON type; an absent input removes the key); a template inside a longer string is replaced by
 * the input's text.
 */
export function fill(value: unknown, inputs: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const m = whole.exec(value);
    if (m) return inputs[m[1]!];
    return value.replace(anywhere, (_, name: string) => inputText(inputs[name]));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, inputs)).filter((v) => v !== undefined);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const filled = fill(v, inputs);
      if (filled !== undefined) out[k] = filled;
    }
    return out;
  }
  return value;
}

/** A step's request with the run's inputs filled in; path segments are percent-encoded. */
export function stepRequest(step: Step, inputs: Record<string, unknown>) {
  const path = step.path.replace(anywhere, (_, name: string) => encodeURIComponent(inputText(inputs[name])));
  return {
    method: step.method,
    path,
    body: step.body === undefined ? undefined : fill(step.body, inputs),
    query: step.query === undefined ? undefined : (fill(step.query, inputs) as Record<string, string | string[]>),
  };
}
