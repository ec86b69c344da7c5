import type { Engine } from '../../src/library/engine.ts';
import type { Hints } from './zod-sample.ts';

/** Valid ids of one organization and an in-range window, by field name, for generated requests. */
export async function orgHints(engine: Engine, organizationId: string): Promise<Hints> {
  const listing = (await engine.listOrganizations()).find((o) => o.id === organizationId)!;
  const { catalog } = engine.core;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];
  const byName: Record<string, () => unknown> = {
    category_id: () => pick(listing.categories)?.id,
    asset_id: () => pick(listing.assets)?.id,
    domain: () => pick(listing.domains)?.name,
    organization_id: () => organizationId,
    view_id: () => pick(catalog.idsOf('view', organizationId)),
    agent_id: () => pick(catalog.idsOf('agent', organizationId)),
    persona_id: () => pick(catalog.idsOf('persona', organizationId)),
    start_date: () => '2026-03-01',
    end_date: () => '2026-03-31',
    timezone: () => 'Europe/Berlin',
  };
  return {
    value(key, format) {
      const f = byName[key];
      if (f) return f();
      if (format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (format === 'date') return '2026-03-15';
      return undefined;
    },
  };
}
