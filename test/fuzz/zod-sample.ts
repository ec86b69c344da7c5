import { z } from 'zod';

type Def = { type: string; [k: string]: unknown };
type Check = {
  _zod: { def: { check: string; value?: number; minimum?: number; maximum?: number; inclusive?: boolean } };
};

export interface Hints {
  /** A valid value for a named field, when the field needs one of this organization's ids or a date. */
  value(key: string, format: string | undefined): unknown;
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
const metaOf = (s: z.ZodType) => z.globalRegistry.get(s) as { format?: string } | undefined;

/** A request that satisfies a schema's shape, drawing ids and dates from `hints`; optional fields are included at random. */
export function sampleValid(schema: z.ZodType, key: string, hints: Hints, rnd: () => number): unknown {
  const def = defOf(schema);
  const format = metaOf(schema)?.format;
  if (format) return hints.value(key, format);
  const hinted = hints.value(key, undefined);
  if (hinted !== undefined && def.type !== 'object') return hinted;
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const optional = ['optional', 'nullable', 'default'].includes(defOf(v).type);
        if (optional && rnd() < 0.6) continue;
        const value = sampleValid(v, k, hints, rnd);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    case 'optional':
    case 'nullable':
    case 'default':
      return sampleValid(def.innerType as z.ZodType, key, hints, rnd);
    case 'pipe': {
      const inner = defOf(def.in as z.ZodType).type === 'transform' ? (def.out as z.ZodType) : (def.in as z.ZodType);
      return sampleValid(inner, key, hints, rnd);
    }
    case 'string':
      return `s${Math.floor(rnd() * 1000)}`;
    case 'number': {
      const checks = (def.checks as Check[] | undefined) ?? [];
      let lo = 0;
      let hi = 100;
      for (const c of checks) {
        const d = c._zod.def;
        if (d.check === 'greater_than') lo = (d.value ?? 0) + (d.inclusive ? 0 : 1);
        if (d.check === 'less_than') hi = (d.value ?? 100) - (d.inclusive ? 0 : 1);
      }
      return lo + Math.floor(rnd() * (Math.min(hi, lo + 100) - lo + 1));
    }
    case 'boolean':
      return rnd() < 0.5;
    case 'enum': {
      const entries = Object.values(def.entries as Record<string, string>);
      return entries[Math.floor(rnd() * entries.length)];
    }
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array': {
      const element = def.element as z.ZodType;
      const checks = (def.checks as Check[] | undefined) ?? [];
      const min = checks.find((c) => c._zod.def.check === 'min_length')?._zod.def.minimum ?? 0;
      const n = min + Math.floor(rnd() * 2);
      const values = Array.from({ length: n }, () => sampleValid(element, key, hints, rnd));
      return defOf(element).type === 'enum' ? [...new Set(values)] : values;
    }
    case 'union':
      return sampleValid((def.options as z.ZodType[])[0]!, key, hints, rnd);
    case 'record':
      return {};
    default:
      return undefined;
  }
}
